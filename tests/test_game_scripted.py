"""Scripted hands: stack the wall, play actions in notation, check what the rules say."""

from __future__ import annotations

import pytest

from sgmahjong.game import Action, IllegalActionError, apply, awaiting, legal_actions
from sgmahjong.game.testing import deal, expose, play, play_out
from sgmahjong.notation import parse_tiles
from sgmahjong.tiles import Tile

E, S, W, N = 0, 1, 2, 3


def acts(state, seat):
    return [str(a) for a in legal_actions(state, seat)]


def test_deal_gives_the_stacked_hands_and_leaves_80_drawable():
    st = deal(E="123m456m789m123p5p", S="1s2s3s4s5s6s7s8s9sEEE9p")
    assert sorted(st.seats[S].concealed) == sorted(parse_tiles("1s2s3s4s5s6s7s8s9sEEE9p"))
    assert len(st.seats[E].concealed) == 14 and all(len(s.concealed) == 13 for s in st.seats[1:])
    assert st.wall_remaining == 148 - 53 - 15
    assert awaiting(st) == [E]
    assert acts(st, S) == []
    assert "discard 5p" in acts(st, E)


def test_discard_then_next_seat_draws():
    st = deal(E="19m19p19s ESWN CFP P", draws="2m")
    st, ev = play(st, "E discard P")
    assert st.turn == S and st.seats[S].drawn == Tile.M2
    assert [e.kind for e in ev if e.kind in ("discard", "draw")] == ["discard", "draw"]


def test_not_your_turn_and_not_in_hand_are_refused_with_reasons():
    st = deal(E="19m19p19s ESWN CFP P")
    with pytest.raises(IllegalActionError, match="not your turn"):
        apply(st, Action(S, "discard", Tile.M1))
    with pytest.raises(IllegalActionError, match="not in"):
        apply(st, Action(E, "discard", Tile.M5))


# W waits on 5p (46p, a dragon pong for the tai); S holds 5p5p.
ROB = dict(E="5p 8m9m 3s6s9s 1p2p7p8p 7s E S W", S="5p5p 2s 8s 3p 9p ESWN F P 7m",
           W="123m 456m CCC 11s 46p", N="1p 4p 7p 2m 5m 8m 3s 6s 9s S W N P")


def test_robbing_the_added_kong():
    st = deal(**ROB, draws="F P N 5p")
    assert set(awaiting(play(st, "E discard 5p")[0])) == {S, W}
    st, _ = play(st, "E discard 5p", "W pass", "S pong", "S discard 2s",
                 "W discard F", "N discard P", "E discard N")
    assert st.turn == S and st.seats[S].drawn == Tile.P5
    st, ev = play(st, "S kong 5p")
    assert st.phase == "claim" and awaiting(st) == [W]
    assert not [e for e in ev if e.kind == "payment"]
    st, ev = play(st, "W win")
    r = st.result
    assert r["winner"] == W and r["shooter"] == S and not r["self_drawn"]
    assert "robbing_the_kong" in [p["name"] for p in r["patterns"]]
    assert not [e for e in ev if e.kind == "payment"]  # a robbed kong pays nothing
    assert sum(st.ledger) == 0 and st.ledger[W] > 0 and st.ledger[S] < 0


def test_missed_discard_bars_the_win_until_the_next_turn():
    st = deal(**ROB, draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "W pass")
    assert Tile.P5 in st.seats[W].barred
    st, _ = play(st, "S pong")
    assert Tile.P5 in st.seats[W].barred
    st, _ = play(st, "S discard 2s", "W discard F")
    assert Tile.P5 not in st.seats[W].barred  # W's own turn began


def test_pass_on_a_robbable_kong_lets_it_complete_with_payment():
    st = deal(**ROB, draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "W pass", "S pong", "S discard 2s",
                 "W discard F", "N discard P", "E discard N", "S kong 5p")
    st, ev = play(st, "W pass")
    pays = [e for e in ev if e.kind == "payment"]
    assert len(pays) == 1 and pays[0].data["amounts"] == [-2, 6, -2, -2]
    assert st.turn == S and any(m.tile == Tile.P5 and m.kind.value == "kong" for m in st.seats[S].melds)


def test_sacred_discard_forbids_pong_of_own_discard():
    st = deal(E="1m9m1s9s ESWN CFP 9p 2m 5m", S="9p9p9p 2s5s8s 3m6m 2p5p8p E S", draws="C F P 6s")
    st, _ = play(st, "E discard 2m", "S discard 9p")
    assert Tile.P9 in st.seats[S].barred
    st, _ = play(st, "W discard F", "N discard P", "E discard 9p")
    assert S not in awaiting(st) or "pong" not in acts(st, S)
    assert st.turn == S or st.phase == "claim"


def test_kong_on_kong_wins_on_the_second_replacement():
    st = deal(S="1m1m1m 9p9p9p9p 234s 567s", draws="8p 8s 5p 3p 1m", back="E E")
    st, _ = play(st, "E discard N", "S discard 8p", "W discard 8s", "N discard 5p", "E discard 3p")
    assert st.turn == S and st.seats[S].drawn == Tile.M1
    st, ev = play(st, "S kong 9p")
    assert st.draw_source == "kong" and st.seats[S].drawn == Tile.EAST
    st, ev2 = play(st, "S kong 1m")
    assert st.draw_source == "kong_on_kong"
    st, _ = play(st, "S win")
    names = [p["name"] for p in st.result["patterns"]]
    assert "kong_on_kong" in names and st.result["self_drawn"]
    kong_pays = [e for e in ev + ev2 if e.kind == "payment"]
    # a concealed kong: 2 units (of 2) from each other seat
    assert len(kong_pays) == 2 and all(e.data["amounts"][S] == 12 for e in kong_pays)
    assert sum(st.ledger) == 0


# race: E discards 1m. S (23m + dragon pong) and N can both win; W can pong.
def test_claim_priority_nearest_winner_takes_the_discard():
    st = deal(E="1m 2s5s8s 3p6p 4s7s E S W N 7m", S="23m 456p 789p CCC 55s",
              W="1m1m 3s 6s 9s 2p 5p 8p N W S E 4m", N="23m 789s FFF PPP 55p")
    st, _ = play(st, "E discard 1m")
    assert set(awaiting(st)) == {S, W, N}
    st, _ = play(st, "N win", "W pong", "S win")
    assert st.result["winner"] == S and st.result["shooter"] == E


def test_claim_priority_thirteen_wonders_beats_a_nearer_win():
    st = deal(E="1m 2s5s8s 3p6p 4s7s E S W N 7m", S="23m 456p 789p CCC 55s",
              N="1m9m1p9p1s9s ESWN CFP")
    st, _ = play(st, "E discard 1m", "S win", "N win")
    assert st.result["winner"] == N
    assert st.result["tai"] == st.rules.limit


def test_claim_priority_pong_beats_chow():
    st = deal(E="1m 2s5s8s 3p6p 4s7s E S W N 7m", S="23m 3s6s9s 1p4p7p E S W N F",
              W="1m1m 3s 6s 9s 2p 5p 8p N W S E 4m")
    st, _ = play(st, "E discard 1m")
    assert "chow 123m" in acts(st, S) and "pong" in acts(st, W)
    st, ev = play(st, "S chow 123m", "W pong")
    assert st.turn == W and [e.kind for e in ev if e.kind in ("pong", "chow")] == ["pong"]
    assert Tile.M2 in st.seats[S].concealed


def test_chow_only_from_the_left():
    st = deal(E="1m 2s5s8s 3p6p 4s7s E S W N 7m", W="23m 3s6s9s 1p4p7p E S W N F")
    st, _ = play(st, "E discard 1m")
    assert W not in awaiting(st)


def test_bonus_tiles_in_the_deal_are_replaced_and_bitten_pairs_pay_double():
    # S is dealt cat+rat (a bitten pair, 暗咬): each other seat pays 2 units (double) at once
    st = deal(S="1a 2a 3s6s9s 1p4p7p E S W N F", back="2m 5m")
    assert st.seats[S].bonus == (Tile.CAT, Tile.RAT)
    assert len(st.seats[S].concealed) == 13 and Tile.CAT not in st.seats[S].concealed
    assert st.ledger == (-4, 12, -4, -4)


def test_animal_pair_completed_in_play_pays_single():
    st = deal(S="1a 3s6s9s 1p4p7p E S W N F 2m", back="5m 8m", draws="2a")
    assert st.ledger == (0, 0, 0, 0)
    st, _ = play(st, "E discard N")
    assert st.seats[S].bonus == (Tile.CAT, Tile.RAT)
    assert st.ledger == (-2, 6, -2, -2)
    assert st.draw_source == "flower" and st.seats[S].drawn == Tile.M8


def test_robbing_the_eighth():
    st = deal(S="1f2f3f4f5f6f7f 3s6s9s 1p4p7p", back="E S W N C F P", draws="8m 8f 2m")
    assert len(st.seats[S].bonus) == 7
    before = st.ledger
    st, _ = play(st, "E discard N", "S discard 8m")
    assert st.phase == "claim" and awaiting(st) == [S] and st.window.kind == "eighth"
    st, _ = play(st, "S win")
    r = st.result
    assert r["winner"] == S and r["shooter"] == W and r["kind"] == "robbing_the_eighth"
    assert r["tai"] == st.rules.limit and len(st.seats[S].bonus) == 8
    assert sum(st.ledger) == 0 and st.ledger[W] - before[W] < st.ledger[E] - before[E]


def test_passing_on_the_eighth_lets_the_drawer_replace_it():
    st = deal(S="1f2f3f4f5f6f7f 3s6s9s 1p4p7p", back="E S W N C F P 2p", draws="8m 8f 2m")
    st, _ = play(st, "E discard N", "S discard 8m", "S pass")
    assert st.turn == W and st.seats[W].drawn == Tile.P2 and Tile.WINTER in st.seats[W].bonus


def test_eight_flowers_win_on_own_turn():
    st = deal(S="1f2f3f4f5f6f7f8f 3s6s9s 1p4p", back="E S W N C F P 9s")
    st, _ = play(st, "E discard N")
    assert "win" in acts(st, S)
    st, _ = play(st, "S win")
    assert st.result["kind"] == "eight_flowers" and st.result["tai"] == st.rules.limit


def test_heavenly_hand():
    st = deal(E="123m 456m 789m 123p 55s")
    assert "win" in acts(st, E)
    st, _ = play(st, "E win")
    assert "heavenly_hand" in [p["name"] for p in st.result["patterns"]]


def test_win_below_minimum_tai_is_refused_with_the_scorers_reason():
    # S's second draw completes a no-tai hand (single wait, mixed suits, no honours)
    st = deal(S="123m 456m 999p 11s 46p", draws="2s 8s 8m 9s 5p")
    st, _ = play(st, "E discard N", "S discard 2s", "W discard 8s", "N discard 8m", "E discard 9s")
    assert st.turn == S and st.seats[S].drawn == Tile.P5
    assert "win" not in acts(st, S)
    with pytest.raises(IllegalActionError, match="not a win"):
        apply(st, Action(S, "win"))


def test_declared_three_dragons():
    st = deal(S="CCC FFF PPP 1m 4m 7m 2p", draws="9s")
    st, _ = play(st, "E discard N")
    assert "win" in acts(st, S)
    st, _ = play(st, "S win")
    assert st.result["kind"] == "declare_three_dragons" and st.result["tai"] == 5


def test_declared_three_dragons_off():
    st = deal(S="CCC FFF PPP 1m 4m 7m 2p", draws="9s", declare_three_dragons=False)
    st, _ = play(st, "E discard N")
    assert "win" not in acts(st, S)


def test_bao_dragons_feeder_pays_for_all_on_a_self_drawn_win():
    st = deal(E="C", S="CC FF PP 123m 9s 4m 7m 1p", W="F", N="P", draws="2s 5s 3p 8s 6p 2p 9s")
    st, _ = play(st, "E discard C", "S pong", "S discard 4m",
                 "W discard F", "S pong", "S discard 7m",
                 "W discard 2s", "N discard P", "S pong")
    assert st.seats[S].liable == N and st.seats[S].liable_reason == "bao_dragons"
    before = st.ledger
    st, _ = play(st, "S discard 1p", "W discard 8s", "N discard 6p", "E discard 2p")
    assert st.seats[S].drawn == Tile.S9, st.seats[S]
    st, _ = play(st, "S win")
    paid = [a - b for a, b in zip(st.ledger, before, strict=True)]
    assert st.result["liable"] == N and paid[E] == 0 and paid[W] == 0 and paid[N] == -paid[S] < 0


def test_bao_kong_fresh_discard_konged_late_pays_the_whole_kong():
    st = deal(E="5p 1m", S="5p5p5p 3s6s9s 1p 7p E S W N", bao_kong_tiles=100)
    st, _ = play(st, "E discard 5p")
    assert st.last_fresh
    st, ev = play(st, "S kong 5p")
    pays = [e.data for e in ev if e.kind == "payment"]
    assert pays == [{"reason": "exposed_kong", "amounts": [-6, 6, 0, 0], "liable": E}]


def test_no_bao_kong_when_the_tile_was_seen():
    st = deal(E="5p 1m", S="5p5p5p 3s6s9s 1p 7p E S W N", bao_kong_tiles=100)
    st, _ = play(st, "E discard 1m")
    assert st.last_fresh
    st = deal(E="5p 1m", S="5p5p5p 3s6s9s 1p 7p E S W N", bao_kong_tiles=3)
    st, ev = play(st, "E discard 5p", "S kong 5p")
    assert [e.data["amounts"] for e in ev if e.kind == "payment"] == [[-2, 6, -2, -2]]


def test_bao_fresh_win_on_a_fresh_discard_late_is_paid_by_the_shooter():
    st = deal(**ROB, bao_fresh_tiles=100)
    st, _ = play(st, "E discard 5p", "W win", "S pass")
    assert st.result["liable"] == E and st.ledger[S] == 0 and st.ledger[N] == 0
    st = deal(**ROB)
    st, _ = play(st, "E discard 5p", "W win", "S pass")
    assert st.result["liable"] is None and st.ledger[S] < 0


def test_wall_commitment_is_revealed_and_verifies():
    from sgmahjong.game.wall import verify_commitment

    st = deal(E="123m 456m 789m 123p 55s")
    h = st.wall_hash
    st, _ = play(st, "E win")
    reveal = st.result["wall_reveal"]
    assert verify_commitment(h, reveal["salt"], reveal["wall"])
    assert not verify_commitment(h, reveal["salt"], list(reversed(reveal["wall"])))


def test_thirteen_wonders_robs_a_concealed_kong():
    st = deal(E="EEEE 2m5m8m 3p6p 4s7s 2s5s", S="1m9m1p9p1s9s SWN CFP P")
    assert "kong E" in acts(st, E)
    st, _ = play(st, "E kong E")
    assert st.window.kind == "concealed_kong" and awaiting(st) == [S]
    st, _ = play(st, "S win")
    r = st.result
    assert r["winner"] == S and r["shooter"] == E and r["tai"] == st.rules.limit
    assert "thirteen_wonders" in [p["name"] for p in r["patterns"]]
    # thirteen wonders: everyone pays as on a self-drawn win
    assert st.ledger[N] == st.ledger[W] == st.ledger[E] < 0


def test_a_concealed_kong_is_not_robbed_by_an_ordinary_win():
    st = deal(E="EEEE 2m5m8m 3p6p 4s7s 2s5s", S="123m456m789p11sSW")
    st, _ = play(st, "E kong E")
    assert st.phase == "turn" and st.turn == E


def test_earthly_hand_on_the_dealers_first_discard():
    st = deal(E="5p 1m4m7m 2s5s8s 3p 9p E S W N", W="123m 456m CCC 11s 46p")
    st, _ = play(st, "E discard 5p", "W win")
    assert "earthly_hand" in [p["name"] for p in st.result["patterns"]]


def test_humanly_hand_later_in_the_first_go_around():
    st = deal(E="1m4m7m 2s5s8s 3p 9p E S W N F", W="123m 456m CCC 11s 46p", draws="5p")
    st, _ = play(st, "E discard F", "S discard 5p", "W win")
    assert st.result["winner"] == W
    assert "humanly_hand" in [p["name"] for p in st.result["patterns"]]


def test_no_special_hand_after_a_claim():
    st = deal(E="F 1m4m7m 2s5s8s 3p 9p E S W N", S="FF 5p 3m6m9m 2p 8p 3s 6s 9s E",
              W="123m 456m CCC 11s 46p")
    st, _ = play(st, "E discard F", "S pong", "S discard 5p", "W win")
    names = [p["name"] for p in st.result["patterns"]]
    assert st.result["winner"] == W and "humanly_hand" not in names and "earthly_hand" not in names


def test_last_tile_self_drawn():
    from sgmahjong.game.engine import new_hand
    from sgmahjong.game.testing import pass_all, stack_wall

    hands = {E: parse_tiles("123m 456m CCC 123p 5p N")}
    wall = stack_wall(hands, [], [])
    last = 53 + 79  # the 80th draw (to E) leaves 15 tiles
    j = next(i for i in range(53, 148) if wall[i] == Tile.P5 and i != last)
    wall[last], wall[j] = wall[j], wall[last]
    st, _ = new_hand(st_rules(), seed=0, wall=wall)
    st, _ = play(st, "E discard N")
    while st.wall_remaining > 0:
        if st.phase == "claim":
            st, _ = pass_all(st)
            continue
        seat = st.turn
        st, _ = apply(st, Action(seat, "discard", st.seats[seat].drawn))
    if st.phase == "claim":
        st, _ = pass_all(st)
    assert st.turn == E and st.seats[E].drawn == Tile.P5 and st.last_tile
    st, _ = play(st, "E win")
    assert "last_tile" in [p["name"] for p in st.result["patterns"]]


def st_rules():
    from sgmahjong.rules import RuleSet

    return RuleSet()


def test_exhausted_wall_is_a_drawn_hand():
    from sgmahjong.game.testing import pass_all

    st = deal()
    st, _ = play(st, f"E discard {st.seats[E].concealed[0]!r}")
    while not st.ended:
        if st.phase == "claim":
            st, _ = pass_all(st)
            continue
        seat = st.turn
        st, _ = apply(st, Action(seat, "discard", st.seats[seat].drawn))
    assert st.result["drawn_game"] and st.wall_remaining == 0 and st.result["winner"] is None


# -- 包 with sets already on the table (expose() shortcut) -------------------------------------

def first(st, seat):
    return f"{'ESWN'[seat]} discard {st.seats[seat].concealed[0]!r}"


def drawn(st, seat):
    return f"{'ESWN'[seat]} discard {st.seats[seat].drawn!r}"


def test_bao_winds():
    st = deal(S="EEE SSS WWW NN 1m 2p", N="N", draws="5s 6s 8p")
    st = expose(st, S, ("[EEE]", E), ("[SSS]", N), ("[WWW]", W))
    st, _ = play(st, first(st, E), "S discard 1m", "W discard 6s", "N discard N", "S pong")
    assert st.seats[S].liable == N and st.seats[S].liable_reason == "bao_winds"


def test_bao_limit_does_not_count_bonus_tiles():
    # RULES.md §5: "exposed" means claimed or added sets; bonus tiles do not count. S (South, East
    # round) has C, S and E on the table (3 tai) and the South flower: F brings the sets to 4 only
    st = deal(S="2f CCC SSS EEE FF 2p", W="F")
    st = expose(st, S, ("[CCC]", E), ("[SSS]", N), ("[EEE]", W))
    st, _ = play(st, first(st, E))
    st, _ = play(st, drawn(st, S), "W discard F", "S pong")
    assert st.seats[S].liable is None
    # with the limit at 4 the same pong reaches it from the sets alone
    st = deal(S="2f CCC SSS EEE FF 2p", W="F", limit=4)
    st = expose(st, S, ("[CCC]", E), ("[SSS]", N), ("[EEE]", W))
    st, _ = play(st, first(st, E))
    st, _ = play(st, drawn(st, S), "W discard F", "S pong")
    assert st.seats[S].liable == W and st.seats[S].liable_reason == "bao_limit"


def test_bao_flush_and_shooter_pays_exemption():
    for payout, liable in (("all_pay", E), ("shooter_pays", None)):
        st = deal(E="7s", S="123s 456s 789s 11s 56s", payout=payout)
        st = expose(st, S, ("[123s]", E), ("[456s]", E), ("[789s]", E))
        st, _ = play(st, "E discard 7s", "S win")
        assert st.result["winner"] == S and st.result["liable"] == liable
        if liable is not None:
            assert st.ledger[W] == 0 and st.ledger[N] == 0


def test_bao_terminals():
    st = deal(E="1p", S="111m 999p 111s 9s9s 1p1p")
    st = expose(st, S, ("[111m]", W), ("[999p]", N), ("[111s]", W))
    st, _ = play(st, "E discard 1p", "S win")
    assert st.result["liable"] == E and st.result["liable_reason"] == "bao_terminals"


def test_bao_dragons_under_shooter_pays_applies_to_a_self_drawn_win():
    st = deal(S="CCC FFF PP 123m 9s 4p", N="P", draws="9s 2s 5s 8s 3p 6p 9s", payout="shooter_pays")
    st = expose(st, S, ("[CCC]", E), ("[FFF]", W))
    st, _ = play(st, first(st, E), "S discard 4p", "W discard 2s", "N discard P", "S pong")
    assert st.seats[S].liable == N
    st, _ = play(st, "S discard 9s", "W discard 8s", "N discard 3p", "E discard 6p")
    before = st.ledger
    st, _ = play(st, "S win")
    paid = [a - b for a, b in zip(st.ledger, before, strict=True)]
    assert st.result["liable"] == N and paid[E] == paid[W] == 0 and paid[N] == -paid[S] < 0


def test_bao_arhats_fourth_kong_on_an_unseen_tile():
    st = deal(S="111m 999m 555p 777s 2s", draws="1m 7s", back="9m 5p 3s 4s")
    st = expose(st, S, ("[111m]", E), ("[999m]", W), ("[555p]", N))
    st, _ = play(st, first(st, E), "S kong 1m", "S kong 9m", "S kong 5p", "S discard 2s")
    assert sum(1 for m in st.seats[S].melds if m.kind.value == "kong") == 3
    st, _ = play(st, "W discard 7s", "S kong 7s")
    assert st.seats[S].liable == W and st.seats[S].liable_reason == "bao_arhats"


def test_bao_green_only_with_pure_green():
    for pure_green, liable in ((True, E), (False, None)):
        st = deal(E="8s", S="FFF 234s 666s 88s 33s", pure_green=pure_green)
        st = expose(st, S, ("[FFF]", W), ("[234s]", E), ("[666s]", W))
        st, _ = play(st, "E discard 8s", "S win")
        assert st.result["winner"] == S and st.result["liable"] == liable


def test_flower_set_and_four_animals_pay_instantly():
    st = deal(S="1f2f3f 1a2a3a 1m4m7m 2p5p8p", back="E S W N C F 4a 2m", draws="4f")
    before = st.ledger
    st, ev = play(st, "E discard N")
    reasons = [e.data["reason"] for e in ev if e.kind == "payment"]
    assert reasons == ["flower_set", "rooster_centipede", "all_animals"]
    # flower set 2 units, rooster+centipede 1, all animals 2 (unit 2): 5 x 2 from each of three
    assert st.ledger[S] - before[S] == 30 and sum(st.ledger) == 0


def test_instant_payments_none_and_animals_only():
    st = deal(S="1a2a 5f 1f 3s6s9s 1p4p7p E S", back="E S W N", instant_payments="none")
    assert st.ledger == (0, 0, 0, 0)
    st = deal(S="1a2a 2f6f 3s6s9s 1p4p7p E", back="E S W N", instant_payments="animals_only")
    assert st.ledger == (-4, 12, -4, -4)  # the bitten animal pair only, doubled (dealt)


def test_views_show_own_tiles_and_hide_others():
    from sgmahjong.game import player_view

    st = deal(E="19m19p19s ESWN CFP P", draws="2m")
    st, _ = play(st, "E discard P")
    v = player_view(st, S)
    me = v["seats"][S]
    assert me["drawn"] == "2m" and "2m" not in me["concealed"] and me["concealed_count"] == 14
    assert v["seats"][E]["concealed"] is None and v["seats"][E]["discards"] == ["P"]
    assert "discard 2m" in v["legal_actions"] and v["awaiting"] == [S]
    spectator = player_view(st, None)
    assert all(s["concealed"] is None and s["drawn"] is None for s in spectator["seats"])
    assert spectator["legal_actions"] == []
    assert player_view(st, E)["seats"][S]["drawn"] is None


def test_no_kong_when_no_replacement_is_left():
    from dataclasses import replace

    from sgmahjong.game.builder import Builder
    from sgmahjong.game.turn import turn_options

    st = deal(E="1m1m1m1m 2s5s8s 3p6p9p E S W")
    assert "kong 1m" in acts(st, E)
    empty = replace(st, front=len(st.wall) - 15 - st.back)
    assert empty.wall_remaining == 0
    opts, _ = turn_options(Builder(empty), E)
    assert [str(a) for a in opts if a.kind == "kong"] == []


def test_sacred_discard_refusal_names_the_rule():
    st = deal(E="1m9m1s9s ESWN CFP 9p 2m 5m", S="9p9p9p 7p8p 2s5s8s 3m6m E S W", draws="C F P 6s")
    st, _ = play(st, "E discard 2m", "S discard 9p", "W discard F", "N discard P", "E discard 9p")
    assert st.phase == "claim" and S in awaiting(st)
    assert "chow 789p" in acts(st, S) and "pong" not in acts(st, S)
    with pytest.raises(IllegalActionError, match="sacred or missed discard"):
        apply(st, Action(S, "pong"))


def test_declared_four_winds():
    st = deal(S="EEE SSS WWW NNN 1m", draws="9s")
    st, _ = play(st, "E discard C")
    assert "win" in acts(st, S)
    st, _ = play(st, "S win")
    assert st.result["kind"] == "declare_four_winds" and st.result["tai"] == st.rules.limit


def test_win_on_a_flower_replacement():
    st = deal(S="123m 456m CCC 11s 46p", draws="2s 8s 8m 9s 1f", back="5p")
    st, _ = play(st, "E discard N", "S discard 2s", "W discard 8s", "N discard 8m", "E discard 9s")
    assert st.seats[S].drawn == Tile.P5 and st.draw_source == "flower"
    st, _ = play(st, "S win")
    names = [p["name"] for p in st.result["patterns"]]
    assert "win_on_flower_replacement" in names and "earthly_hand" not in names


def test_fresh_tile_definition_option_decides_bao_fresh():
    from sgmahjong.game.testing import pass_all

    for fresh_tile, liable in (("discards", E), ("discards_or_exposed", None)):
        st = deal(E="6p", S="678p 1m4m7m 1s4s7s E S W", W="123m 456m CCC 11s 57p",
                  bao_fresh_tiles=100, fresh_tile=fresh_tile)
        st = expose(st, S, ("[678p]", E))  # a chow holding a 6p: exposed, not discarded
        st, _ = play(st, "E discard 6p", "W win")
        st, _ = pass_all(st)
        assert st.result["winner"] == W and st.result["liable"] == liable


def test_choosing_a_chow_over_a_win_that_loses_to_a_pong_is_a_missed_discard():
    # S (next after E, so it may chow) could win or chow E's 5p; N pongs it and takes it
    st = deal(E="5p", S="123m 456m CCC 11s 46p", N="5p5p 1s4s7s 2m 8m E S W N F")
    st, _ = play(st, "E discard 5p")
    assert "win" in acts(st, S) and "chow 456p" in acts(st, S) and "pong" in acts(st, N)
    st, _ = play(st, "S chow 456p", "N pong")
    assert st.turn == N and Tile.P5 in st.seats[S].barred


def test_a_claimed_discard_stays_in_the_view_as_taken_and_by_whom():
    from sgmahjong.game import player_view

    st = deal(**ROB, draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "W pass", "S pong", "S discard 2s", "W discard F", "N discard P",
                 "E discard N")
    assert st.seats[E].discards == tuple(parse_tiles("N")) and st.seats[E].taken == ((0, Tile.P5, S),)
    for viewer in (E, N, None):
        seat = player_view(st, viewer)["seats"][E]
        assert seat["discards"] == ["N"] and seat["taken"] == [[0, "5p", S]]
    st, _ = play(st, "S kong 5p", "W win")  # robbed: the kong's tile is not a discard
    assert st.seats[S].taken == () and player_view(st, None)["seats"][N]["taken"] == []


def test_the_result_itemises_the_instant_payments_and_they_add_up_to_the_hand():
    st = deal(**ROB, draws="F P N 5p")
    st, _ = play(st, "E discard 5p", "W pass", "S pong", "S discard 2s", "W discard F", "N discard P",
                 "E discard N", "S kong 5p", "W pass")
    st = play_out(st)
    r = st.result
    assert "exposed_kong" in [p["reason"] for p in r["instant"]]  # an added kong pays as exposed
    assert all(p["amounts"][p["seat"]] > 0 and sum(p["amounts"]) == 0 for p in r["instant"])
    totals = [sum(p["amounts"][s] for p in r["instant"]) + r["payments"][s] for s in range(4)]
    assert totals == list(st.ledger)
