"""Substantive faults native reviewers found in printed rulings, each asserted on the ruling a case
file gets: what is applied is never also listed as set aside; a won game is not a penalty; a
request for an amount is answered by what the party himself receives."""

from referee.expert.language.rulebook import load_rulebook

from case_helpers import rule_case as _rule


def test_an_article_applied_is_not_listed_as_set_aside(tmp_path):
    # skat 4.3.5: an opponent plays open; the finding that rules applies 4.3.5 and 4.1.4, so
    # the sibling readings of 4.3.5 and 4.1.4 it prevails over set no article aside
    ruling = _rule(tmp_path, "skat", {"answers": {
        "claim": ["opponent-plays-open"], "offender": "opponent_2", "innocent_choice": "end",
        "opponent_took_all": False, "game_type": "grand", "matadors_with": "with", "matadors": 1,
        "hand": "not_hand", "announced": "none", "points_counted": True, "soloist_points": 38,
        "opponents_points": 49, "required_level": "none"}})
    [finding] = ruling.findings
    assert sorted(finding.provisions) == ["skat:4.1.4", "skat:4.3.5"] and finding.kind == "violation"
    assert [p.to_dict() for p in finding.penalty] == [
        {"player": "opponent_2", "effect": "game_ends", "amount": None},
        {"player": "soloist", "effect": "game_won", "amount": 48}]
    applied = set(finding.provisions)
    assert not [n for n in ruling.not_ruled if set(n.provisions) <= applied]
    assert ruling.refined and all(set(n.provisions) <= applied for n in ruling.refined)


def test_a_game_decided_before_the_infraction_is_scored_without_a_penalty(tmp_path):
    # skat 4.1.3: the soloist revokes after reaching 61; his game is scored as won, no penalty
    ruling = _rule(tmp_path, "skat", {"answers": {
        "game_type": "hearts", "matadors_with": "without", "matadors": 1, "hand": "not_hand",
        "announced": "none", "bid": 20, "required_level": "none",
        "claim": ["revoke"], "offender": "soloist", "could_follow": True, "revoke_found": "later_in_play",
        "cards_mixed": False, "points_counted": True, "soloist_points": 65, "opponents_points": 35}})
    decided = [f for f in ruling.findings if f.provisions == ["skat:4.1.3"]]
    assert [(f.kind, [p.to_dict() for p in f.penalty]) for f in decided] == [
        ("violation-no-penalty", [{"player": "soloist", "effect": "game_won", "amount": 20}])]


def test_a_payee_asking_for_more_than_his_own_share_is_granted_it_in_part(tmp_path):
    # ulti Renonszok 2: the declarer's renonsz pays each defender 17; the first defender asked 33
    ruling = _rule(tmp_path, "ulti", {"answers": {
        "game_kind": "colour", "trump": "makk", "claim": ["revoke"], "booked": False, "offender": "declarer",
        "revoke_kind": "not-follow", "could_comply": True, "card_visible": True, "st_ulti": "open-rekontra",
        "st_parti": "open", "st_negyvenszaz": "not-bid", "st_huszszaz": "not-bid", "st_durchmars": "not-bid",
        "st_teritett_durchmars": "not-bid"},
        "requests": [{"party": "defender_1", "asks": "effect:pays", "on": "declarer", "amount": 33},
                     {"party": "defender_2", "asks": "effect:pays", "on": "declarer", "amount": 17}]})
    assert [p.to_dict() for f in ruling.findings for p in f.penalty] == [
        {"player": "declarer", "effect": "pays", "amount": 17, "against": "defender_1"},
        {"player": "declarer", "effect": "pays", "amount": 17, "against": "defender_2"}]
    first, second = ruling.requests
    assert (first.answer, first.cause, first.given) == ("granted", "less", 17)     # 17 of the 33 asked
    assert second.answer == "granted" and "ulti:renonsz.2" in second.provisions


def test_a_contested_claim_is_settled_without_naming_an_offender(tmp_path):
    # bridge 70C/70D: the tricks a contested claim loses go to the opponents; the claim is no
    # irregularity, so the award names no offender, yet it still decides against the claimer
    ruling = _rule(tmp_path, "bridge", {"answers": {
        "deal_stage": "finished", "contract_level": 4, "contract_strain": "spades", "contract_doubled": "doubled",
        "declarer": "S", "vulnerability": "east-west", "declarer_tricks": 10,
        "claim": ["claim-concession"], "l70_issues": ["outstanding-trump", "new-line"], "l70c_mentioned": False,
        "l70c_unaware": True, "l70c_normal_loss": True, "l70d_alternative_fails": True, "l70_tricks_lost": 1,
        "l70_claimer": "S"},
        "requests": [{"party": "W", "asks": "effect:trick_transfer", "amount": 1},
                     {"party": "S", "asks": "rejected"}, {"party": "E", "asks": "upheld"}]})
    [finding] = ruling.findings
    assert finding.kind == "settlement" and finding.offender is None
    assert "bridge:70C" in finding.provisions and "bridge:70D" in finding.provisions
    assert [p.to_dict() for p in finding.penalty] == [
        {"player": "W", "effect": "trick_transfer", "amount": 1, "against": "S"}]
    assert [r.answer for r in ruling.requests] == ["granted", "refused", "granted"]


def test_a_penalty_article_invoked_while_the_measure_is_open_is_undecided(tmp_path):
    # preferans Član 21: three calls without reason may be treated as unsporting, but the
    # measures (Član 24) are cut off: a request to punish under Član 21, stav 1 is left open by
    # that finding, not refused on the conditions of stav 1
    ruling = _rule(tmp_path, "preferans", {
        "answers": {"betl_contra": False, "deal_play": "both", "game": "betl",
                    "game_mode": "talon", "deal_contra": "none", "betl_taken": False,
                    "claim": ["frivolous"], "unfounded_calls": 3, "frivolous_player": "defender_1"},
        "requests": [{"party": "declarer", "asks": "other", "text": "punish him",
                      "provision": "preferans:21.impose-prescribed"},
                     {"party": "declarer", "asks": "provision:preferans:9.lead.1"}]})
    [finding] = ruling.findings
    assert finding.kind == "undecided" and finding.offender == "defender_1"
    assert "preferans:21.frivolous-calls" in finding.provisions
    punish, lead = ruling.requests
    assert punish.answer == "undecided" and "preferans:21.frivolous-calls" in punish.provisions
    assert (lead.answer, lead.cause) == ("refused", "not-met")      # an article with no penalty stays refused


def test_a_lower_bid_noticed_after_the_bidding_is_warned_whatever_the_reading(tmp_path):
    # ulti Továbbiak 2, 1. mondat: the warning is due for a lower bid noticed before the points
    # are entered; left without a reading of the game played on it, the ruling still warns
    ruling = _rule(tmp_path, "ulti", {"answers": {
        "game_kind": "colour", "trump": "tok", "claim": ["lower-bid"], "booked": False, "bid_lower": True,
        "lower_noticed": "after-bidding", "offender": "declarer"}})
    assert [(f.provisions, f.kind, [p.to_dict() for p in f.penalty]) for f in ruling.findings] == [
        (["ulti:tovabbiak.2"], "rectification", [{"player": "declarer", "effect": "warning", "amount": None}])]


def _revoke(stage: str) -> dict:
    shared = {"deal_stage": stage, "contract_level": 4, "contract_strain": "spades", "contract_doubled": "undoubled",
              "declarer": "S", "vulnerability": "north-south"}
    if stage == "finished":
        shared["declarer_tricks"] = 8
    return {"answers": {**shared, "claim": ["play"], "play_claim": ["revoke"], "offender": "E", "l63_revoked": True,
                        "l63_events": ["played-next"], "l63_trick12": False, "l64_exception": ["none"],
                        "l64_winner": "offender", "l11_attention": "player", "l11a_gain": False,
                        "l64_later_tricks": 3}}


def test_an_instruction_for_the_play_is_not_given_once_the_play_has_ended(tmp_path):
    # bridge 64A1: during the play "play continues to the end; then move the tricks"; ruled
    # after the board is finished only the moving of the tricks remains to be done
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    during = _rule(tmp_path / "a", "bridge", _revoke("play"))
    after = _rule(tmp_path / "b", "bridge", _revoke("finished"))
    for ruling in (during, after):
        [finding] = ruling.findings
        assert sorted(finding.provisions) == ["bridge:63A1", "bridge:63B", "bridge:64A1"] and finding.kind == "violation"
        assert [p.to_dict() for p in finding.penalty] == [
            {"player": "S", "effect": "trick_transfer", "amount": 2, "against": "E"}]
    [said_during] = during.findings[0].orders
    [said_after] = after.findings[0].orders
    assert said_during["en"].startswith("Play continues to the end")
    assert "continues" not in said_after["en"] and "продолжается" not in said_after["ru"]
    assert "when" not in said_after


def test_an_order_condition_reads_answers_only(tmp_path):
    import shutil

    import pytest

    from conftest import FIXTURES
    from referee.expert.language.errors import RefereeError
    shutil.copytree(FIXTURES, tmp_path / "k")
    path = next((tmp_path / "k" / "mini" / "articles").glob("*.yaml"))
    text = path.read_text()
    assert "summary:" in text
    path.write_text(text.replace("summary:", "orders: [{when: {findings: none}, en: \"Go on.\"}]\n        summary:", 1))
    with pytest.raises(RefereeError) as err:
        load_rulebook("mini", tmp_path / "k")
    assert "an order's when: reads answers only" in str(err.value)


def test_an_incomplete_ruling_leaves_open_a_request_an_open_question_decides(tmp_path):
    # bridge 35D: whether the double was among the calls cancelled is not yet answered; the
    # request that the redoubled score stand depends on it, the cancellation itself does not
    ruling = _rule(tmp_path, "bridge", {
        "answers": {"deal_stage": "finished", "contract_level": 4, "contract_strain": "spades",
                    "contract_doubled": "redoubled", "declarer": "S", "vulnerability": "east-west",
                    "declarer_tricks": 11, "claim": ["call-after-final-pass"], "offender": "W",
                    "l35d_after_final": True, "l11_attention": "player"},
        "requests": [{"party": "N", "asks": "stands"}, {"party": "E", "asks": "effect:call_cancelled", "on": "W"}]})
    assert "l35d_doubling_cancelled" in ruling.open_questions
    assert [(f.provisions, f.kind) for f in ruling.findings] == [(["bridge:35D"], "rectification")]
    stands, cancelled = ruling.requests
    assert (stands.answer, stands.cause) == ("undecided", "depends")
    assert "l35d_doubling_cancelled" in stands.reason["en"]
    assert cancelled.answer == "granted" and cancelled.provisions == ["bridge:35D"]


def test_two_renonsz_in_two_events_without_the_tournaments_reading_give_both_readings(tmp_path):
    """Ulti's text has no rule for several renonsz (the reading question says so), but the
    interview asks readings per event: two renonsz in two events used to be settled 'first only'
    in silence, citing a sentence that does not say it. Unanswered, the reading is now ruled as
    unknown: one alternative per reading; answered, that reading alone."""
    case = {"answers": {"booked": False, "game_kind": "colour", "trump": "zold"},
            "events": [
                {"claim": ["revoke"], "offender": "defender_1", "revoke_kind": "not-follow",
                 "could_comply": True, "card_visible": True, "st_parti": "open", "st_negyvenszaz": "not-bid",
                 "st_huszszaz": "not-bid", "st_ulti": "open", "st_durchmars": "not-bid",
                 "st_teritett_durchmars": "not-bid"},
                {"claim": ["revoke"], "offender": "declarer", "revoke_kind": "not-beat",
                 "could_comply": True, "card_visible": True, "st_parti": "open", "st_negyvenszaz": "not-bid",
                 "st_huszszaz": "not-bid", "st_ulti": "open", "st_durchmars": "not-bid",
                 "st_teritett_durchmars": "not-bid"}]}
    ruling = _rule(tmp_path, "ulti", case)
    assert any(u.question == "several_renonsz" and u.matters for u in ruling.unknown)
    readings = [a.when for a in ruling.alternatives]
    assert sorted(w[0]["several_renonsz"] for w in readings) == ["each", "first-only"]
    later = {a.when[0]["several_renonsz"]: [n.cause for n in a.not_ruled] for a in ruling.alternatives}
    assert "later" in later["first-only"] and "later" not in later["each"]
    case["answers"]["several_renonsz"] = "first-only"
    ruling = _rule(tmp_path, "ulti", case)
    assert not ruling.alternatives and [n.cause for n in ruling.not_ruled] == ["later"]
