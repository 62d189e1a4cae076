"""Events run by the server (docs/events.md): rounds seated and opened, a duplicate round's shared
walls, the standings read from the stored hands. The rules of seating and scoring are the pure
``sgmahjong.tournament``; this package only calls them."""
