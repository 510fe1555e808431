"""The executor seam (scorebook/batch.py) on this machine: a bounded window read lazily, a
failed task handed back against its argument, and the same games from one or two processes."""
from __future__ import annotations

from pathlib import Path

import pytest

from scorebook import batch, worker_cache
from scorebook.errors import UsageError
from scorebook.records.play import play


def _fails_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three")
    return x * 10


def test_the_window_bounds_what_is_read_ahead():
    read = []

    def args():
        for i in range(100):
            read.append(i)
            yield i
    with batch.executor("local", jobs=1) as pool:
        seen = 0
        for arg, result in batch.run_tasks(pool, abs, args(), window=5):
            seen += 1
            assert len(read) <= seen + 5  # never more than the window ahead of what came back
            assert result == arg
    assert seen == 100


def test_one_local_job_hands_back_each_result_before_the_next_task_runs():
    ran = []

    def task(x):
        ran.append(x)
        return x

    with batch.executor("local", jobs=1) as pool:
        for arg, result in batch.run_tasks(pool, task, range(6)):
            assert ran == list(range(arg + 1))  # a game is stored (and reported) as it ends, in order
            assert result == arg


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_task_comes_back_against_its_argument(jobs):
    with batch.executor("local", jobs=jobs) as pool:
        out = dict(batch.run_tasks(pool, _fails_on_three, range(6)))
    assert isinstance(out.pop(3), ValueError)
    assert out == {0: 0, 1: 10, 2: 20, 4: 40, 5: 50}


def test_an_unknown_executor_is_a_usage_error():
    with pytest.raises(UsageError):
        with batch.executor("slurm"):
            pass


def test_two_processes_play_the_very_games_one_plays(tmp_path):
    from scorebook.records.store import Store
    one = play(Store(str(tmp_path / "a.db")), "game-of-islands", ["greedy", "random"], games=5, seed=4,
               options={"grid": 6})
    two = play(Store(str(tmp_path / "b.db")), "game-of-islands", ["greedy", "random"], games=5, seed=4,
               options={"grid": 6}, jobs=2)
    assert [g["id"] for g in two["games"]] == [g["id"] for g in one["games"]]
    assert [g["players"] for g in two["games"]] == [g["players"] for g in one["games"]]
    assert two["summary"]["mean"] == one["summary"]["mean"]


def test_a_worker_cache_is_seeded_from_the_package_and_named_by_host_and_worker(tmp_path, monkeypatch):
    monkeypatch.setenv(worker_cache.WORKER_CACHE_VARIABLE, str(tmp_path))
    folder = worker_cache.worker_cache_dir("tcp://10.0.0.1:4000")
    assert folder.parent == tmp_path and "/" not in folder.name and folder.name.endswith("tcp_10.0.0.1_4000")
    folder.mkdir()
    import scorebook.engines as package

    def cached() -> set:  # the package's cache, which another test worker may be adding to meanwhile
        return {f.name for f in Path(package.__file__).parent.glob("*/__pycache__/*.nb[ic]")}
    before = cached()
    copied = worker_cache.seed_cache(folder)
    again = worker_cache.seed_cache(folder)
    assert again <= len(cached() - before)  # only what the folder lacks: none, unless the package gained some
    assert copied + again == sum(1 for _ in folder.rglob("*.nb[ic]"))
