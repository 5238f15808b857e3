"""core.memo.Memo, the one in-process cache: its bound, its idle expiry (counted from the
last read), and its calls being atomic. No database."""

from __future__ import annotations

import threading
import time

from core.memo import Memo


class Clock:
    """A clock that moves only when told, from the real one's reading."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


def test_the_least_recently_used_goes_first():
    memo: Memo[str, int] = Memo(maxsize=3, idle=60)
    for n, key in enumerate("abc"):
        memo.put(key, n)
    assert memo.get("a") == 0  # now "b" is the least recently used
    memo.put("d", 3)
    assert list(memo) == ["c", "a", "d"]
    assert "b" not in memo and memo.get("b") is None and len(memo) == 3


def test_the_bound_counts_sizes_and_a_value_too_large_is_not_kept():
    memo: Memo[str, tuple[int, ...]] = Memo(maxsize=5, idle=60, sizeof=len)
    memo.put("a", (1, 2))
    memo.put("b", (1, 2, 3))
    assert memo.size() == 5
    memo.put("c", (1,))  # "a" goes
    assert list(memo) == ["b", "c"] and memo.size() == 4
    assert memo.put("b", (1,) * 6) is False  # larger than the whole bound: "b" goes too
    assert list(memo) == ["c"] and memo.size() == 1


def test_an_entry_not_read_for_idle_seconds_goes_and_a_read_rearms_it():
    clock = Clock()
    memo: Memo[str, int] = Memo(maxsize=10, idle=60, timer=clock)
    memo.put("read", 1)
    memo.put("left", 2)
    clock.now += 50
    assert memo.get("read") == 1
    clock.now += 20  # "left" sat 70 s, "read" 20 s since it was read
    assert "left" not in memo and memo.get("left") is None
    assert list(memo) == ["read"] and len(memo) == 1


def test_put_unless_keeps_what_is_held():
    memo: Memo[str, tuple[int, str]] = Memo(maxsize=10, idle=60)
    memo.put("s", (5, "latest"))
    assert memo.put("s", (3, "older"), unless=lambda held: held[0] > 3) is False
    assert memo.get("s") == (5, "latest")
    assert memo.put("s", (7, "newer"), unless=lambda held: held[0] > 7) is True
    assert memo.get("s") == (7, "newer")


def test_pop_and_clear():
    memo: Memo[str, int] = Memo(maxsize=10, idle=60)
    assert memo.pop("nothing") is None and len(memo) == 0
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.pop("a") == 1 and memo.pop("a", -1) == -1
    memo.clear()
    assert list(memo) == [] and memo.size() == 0


def test_bounds_read_from_callables_apply_at_the_next_put():
    bound = [4]
    memo: Memo[int, int] = Memo(maxsize=lambda: bound[0], idle=60)
    for n in range(4):
        memo.put(n, n)
    bound[0] = 2
    memo.put(4, 4)  # rebuilt: the two most recently used of what was there, then 4
    assert list(memo) == [3, 4]


def test_calls_from_many_threads_keep_the_bound():
    memo: Memo[int, int] = Memo(maxsize=50, idle=60)

    def work(base: int) -> None:
        for n in range(2_000):
            memo.put(base + n % 80, n)
            memo.get(base + (n * 7) % 80)
            if n % 13 == 0:
                memo.pop(base + n % 80)

    threads = [threading.Thread(target=work, args=(t * 1000,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(memo) <= 50 and memo.size() == len(memo)
