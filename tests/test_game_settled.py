"""The four rules RULES.md §3/§5 now settle, played on stacked walls: a declaration on the turn a pong
or kong of its last set began, bao_dragons for the third dragon won on as the pair, bao_kong for a win
on the konged discard's replacement draw, robbing the eighth during the deal, and what "exposed" means
for bao_flush / bao_limit."""

from __future__ import annotations

from dataclasses import replace

from sgmahjong.game import awaiting, legal_actions
from sgmahjong.game.log import replay, to_log
from sgmahjong.game.testing import deal, expose, pass_all, play
from sgmahjong.tiles import Tile

E, S, W, N = 0, 1, 2, 3


def acts(state, seat):
    return [str(a) for a in legal_actions(state, seat)]


# -- declarations on the turn the last set was claimed -------------------------------------------

def test_three_dragons_declared_after_ponging_the_last_dragon_is_paid_off_that_discard():
    st = deal(E="C", S="CC FFF PPP 1m 4m 7m 2p 5s")
    st, _ = play(st, "E discard C", "S pong")
    assert st.turn == S and "win" in acts(st, S)  # before: only discards were offered
    st, _ = play(st, "S win")
    r = st.result
    assert r["kind"] == "declare_three_dragons" and r["winner"] == S
    assert r["shooter"] == E and r["self_drawn"] is False
    # all-pay: the shooter pays double
    assert st.ledger[E] == 2 * st.ledger[W] == 2 * st.ledger[N] and st.ledger[W] < 0
    assert sum(st.ledger) == 0


def test_four_winds_declared_after_konging_the_last_wind_is_paid_off_that_discard():
    st = deal(E="N", S="EEE SSS WWW NNN 1m", back="9p")
    st, _ = play(st, "E discard N", "S kong N")
    assert st.turn == S and st.draw_source == "kong" and "win" in acts(st, S)
    st, _ = play(st, "S win")
    r = st.result
    assert r["kind"] == "declare_four_winds" and r["shooter"] == E and not r["self_drawn"]


def test_a_declaration_after_a_chow_is_self_drawn():
    # the dragons were complete before; the chow did not complete the last set
    st = deal(E="3m", S="CCC FFF PPP 12m 5s 8s", rules=None)
    st, _ = play(st, "E discard 3m", "S chow 123m")
    assert "win" in acts(st, S)
    st, _ = play(st, "S win")
    assert st.result["shooter"] is None and st.result["self_drawn"] is True


# -- bao_dragons: the third dragon won on as the pair --------------------------------------------

def first(st, seat):
    return f"{'ESWN'[seat]} discard {st.seats[seat].concealed[0]!r}"


def open_with_e(st):
    """E discards its lowest tile and everyone asked passes: S draws."""
    st, _ = play(st, first(st, E))
    st, _ = pass_all(st)
    assert st.turn == S
    return st


def drawn(st, seat):
    return f"{'ESWN'[seat]} discard {st.seats[seat].drawn!r}"


def test_bao_dragons_when_the_third_dragon_is_won_on_as_the_pair():
    st = deal(S="CCC FFF 123m 456m P", W="P")
    st = expose(st, S, ("[CCC]", E), ("[FFF]", N))
    st = open_with_e(st)
    st, _ = play(st, drawn(st, S), "W discard P")
    assert "win" in acts(st, S)
    st, _ = play(st, "S win")
    r = st.result
    assert r["shooter"] == W and r["liable"] == W and r["liable_reason"] == "bao_dragons"
    assert st.ledger[E] == 0 and st.ledger[N] == 0 and st.ledger[W] == -st.ledger[S] < 0


def test_no_bao_dragons_with_one_dragon_set_on_the_table():
    st = deal(S="CCC 789p 123m 456m P", W="P")
    st = expose(st, S, ("[CCC]", E), ("[789p]", E))
    st = open_with_e(st)
    st, _ = play(st, drawn(st, S), "W discard P", "S win")
    assert st.result["winner"] == S and st.result["liable"] is None and st.ledger[N] < 0


# -- bao_kong: a win on the replacement draw of a konged fresh discard ---------------------------

def _late(st, left):
    """The same position with only ``left`` drawable tiles (the front moved on)."""
    return replace(st, front=st.front + st.wall_remaining - left)


def test_bao_kong_the_discarder_pays_the_whole_win_on_the_replacement_draw():
    st = _late(deal(E="7m", S="777m CCC 456s 789s 5p", back="5p"), 6)
    st, events = play(st, "E discard 7m", "S kong 7m")
    kong_pay = [e for e in events if e.kind == "payment"]
    assert kong_pay and kong_pay[-1].data["liable"] == E
    assert st.turn == S and st.seats[S].drawn == Tile.P5 and "win" in acts(st, S)
    before = st.ledger
    st, _ = play(st, "S win")
    r = st.result
    assert r["self_drawn"] and r["liable"] == E and r["liable_reason"] == "bao_kong"
    assert st.ledger[W] == before[W] and st.ledger[N] == before[N]
    assert st.ledger[E] - before[E] == -(st.ledger[S] - before[S]) < 0


def test_no_bao_kong_early_in_the_hand_or_after_a_further_kong():
    st = _late(deal(E="7m", S="777m CCC 456s 789s 5p", back="5p"), 20)
    st, _ = play(st, "E discard 7m", "S kong 7m", "S win")
    assert st.result["liable"] is None and st.ledger[W] < 0
    # the replacement of a later concealed kong is not the konged discard's
    st = _late(deal(E="7m", S="777m 1111s 456s 789s", back="9m 5s"), 6)
    st, _ = play(st, "E discard 7m", "S kong 7m", "S kong 1s")
    assert st.kong_liable is None


# -- robbing the eighth during the deal ----------------------------------------------------------

EIGHTH_DEAL = dict(S="1f2f3f4f5f6f7f 3s6s9s 1p4p7p", W="8f", back="E S W N C F P 2p 5p")


def test_the_eighth_flower_laid_out_in_the_deals_replacement_cycles_can_be_robbed():
    st = deal(**EIGHTH_DEAL)
    assert st.phase == "claim" and st.window.kind == "eighth" and st.window.source == W
    assert awaiting(st) == [S] and acts(st, S) == ["win", "pass"]
    st, _ = play(st, "S win")
    r = st.result
    assert r["winner"] == S and r["shooter"] == W and r["kind"] == "robbing_the_eighth"
    assert len(st.seats[S].bonus) == 8 and sum(st.ledger) == 0
    again, _ = replay(to_log(st))
    assert again.result == st.result


def test_passing_on_the_eighth_during_the_deal_lets_the_deal_go_on():
    st = deal(**EIGHTH_DEAL)
    st, _ = play(st, "S pass")
    assert st.phase == "turn" and st.turn == E and st.deal_pos is None
    assert Tile(41) in st.seats[W].bonus and len(st.seats[S].bonus) == 7
    assert all(t < 34 for seat in st.seats for t in seat.concealed)
    assert len(st.seats[E].concealed) == 14 and all(len(x.concealed) == 13 for x in st.seats[1:])
    assert sum(len(x.concealed) + len(x.bonus) for x in st.seats) + st.wall_remaining + 15 == 148
    again, _ = replay(to_log(st))
    assert again.seats == st.seats


# -- "exposed" for bao_flush -----------------------------------------------------------------

def test_a_concealed_kong_does_not_count_toward_bao_flush():
    def hand(kong_concealed):
        st = deal(S="2222s 345s 678s 99s 1s", W="9s", draws="1s 3p", back="7m")
        st = expose(st, S, ("[345s]", E), ("[678s]", E))
        if not kong_concealed:
            st = expose(st, S, ("[222s]", N))
        st, _ = play(st, first(st, E))
        kong = "S kong 2s"
        st, _ = play(st, kong, "S discard 7m", "W discard 9s")
        assert "win" in acts(st, S)
        st, _ = play(st, "S win")
        return st

    st = hand(kong_concealed=True)
    assert st.result["liable"] is None and st.ledger[N] < 0
    st = hand(kong_concealed=False)  # an added kong: three exposed bamboo sets
    assert st.result["liable"] == W and st.result["liable_reason"] == "bao_flush"
