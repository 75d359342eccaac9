"""The memory agent's response schedule (tb/mem_agent.py `ResponseSchedule`) against the memory
port's contract (docs/design/rtl.md, "Ports"): load responses are tagged and may come back in any
order, the port takes at most one a cycle, and a response comes 1..max_latency cycles after its
request unless the one-a-cycle rule pushes it later. The expectations below follow from that
contract and from the latencies the test itself scripts, not from running the schedule."""

from __future__ import annotations

import random

import pytest

from tb.mem_agent import ResponseSchedule


class ScriptedLatencies(random.Random):
    """A random generator whose `randint` gives the latencies a test chose, in order."""

    def __init__(self, latencies: list[int]) -> None:
        super().__init__(0)
        self.latencies = list(latencies)

    def randint(self, a: int, b: int) -> int:
        value = self.latencies.pop(0)
        assert a <= value <= b, f"scripted latency {value} outside {a}..{b}"
        return value


def test_a_later_request_with_a_short_latency_overtakes_an_earlier_one() -> None:
    s = ResponseSchedule(ScriptedLatencies([8, 1]), max_latency=8)
    first = s.due(10)  # due 18: its own latency
    second = s.due(11)  # due 12: its own latency, six cycles before the first
    assert (first, second) == (18, 12)


def test_one_response_a_cycle_moves_a_collision_to_the_next_free_cycle() -> None:
    # requests at 10, 11, 12 with latencies 3, 2, 1 all fall due at 13: the port takes one a cycle
    s = ResponseSchedule(ScriptedLatencies([3, 2, 1]), max_latency=8)
    assert [s.due(10), s.due(11), s.due(12)] == [13, 14, 15]


def test_request_order_keeps_responses_in_request_order_from_the_same_latencies() -> None:
    s = ResponseSchedule(ScriptedLatencies([8, 1]), max_latency=8, order="request")
    assert (s.due(10), s.due(11)) == (18, 19)


def test_seeded_schedule_overtakes_and_keeps_the_contract() -> None:
    """Over a seeded stream of requests (one a cycle, some cycles idle): every response within its
    latency window or pushed only by busy cycles, no two in one cycle, and some overtake."""
    rng = random.Random(12345)
    max_latency = 16
    s = ResponseSchedule(random.Random(7), max_latency)
    cycle, dues = 0, []
    for _ in range(2000):
        cycle += 1 + (rng.random() < 0.3)
        dues.append((cycle, s.due(cycle)))
    all_dues = [d for _, d in dues]
    assert len(set(all_dues)) == len(all_dues), "two responses due in one cycle"
    for c, d in dues:
        assert d > c
        # a response later than its window only when every cycle from the window's end to it is taken
        if d > c + max_latency:
            assert set(range(c + max_latency, d)) <= set(all_dues)
    overtakes = sum(1 for k in range(1, len(dues)) if dues[k][1] < dues[k - 1][1])
    assert overtakes > len(dues) // 10, f"only {overtakes} of {len(dues)} responses overtake the one before"


def test_request_order_never_overtakes() -> None:
    s = ResponseSchedule(random.Random(7), 16, order="request")
    dues = [s.due(c) for c in range(1, 500)]
    assert dues == sorted(dues) and len(set(dues)) == len(dues)


@pytest.mark.parametrize(("order", "latency", "text"), [("fifo", 8, "order 'fifo'"), ("any", 0, "max_latency 0")])
def test_bad_settings_are_named(order: str, latency: int, text: str) -> None:
    with pytest.raises(ValueError, match=text):
        ResponseSchedule(random.Random(1), latency, order)
