"""The metrics the scheduler, the painter, the courier and the store feed, read back from the bot's
own registry (a second `Metrics` keeps its own numbers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from keystone.app import GameService, Reply
from keystone.app.clock import DAY, HOUR
from keystone.app.delivery import NotNow
from keystone.app.metrics import MeteredCourier, MeteredPainter, Metrics
from keystone.app.painter import Painter
from keystone.app.scheduler import Scheduler
from keystone.store import Store
from tests.clock_helpers import T0, Time
from tests.test_app_clock import ANN, BOB, HERE, Outbox, start


@pytest.fixture
def time() -> Time:
    return Time()


@pytest.fixture
async def metered(tmp_path: Path, time: Time) -> AsyncIterator[tuple[GameService, Metrics]]:
    metrics = Metrics()
    store = await Store.open(tmp_path / "ключ 🦫.db", clock=time)
    store.watch(metrics.database_error)
    service = GameService(store, seeds=lambda: 7, clock=time, painter=MeteredPainter(Painter(), metrics))
    service.moved = metrics.moved
    yield service, metrics
    await store.close()


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    found = metrics.registry.get_sample_value(name, labels)
    return 0.0 if found is None else found


async def test_the_scheduler_counts_its_lateness_and_work_and_the_courier_its_failures(
    metered: tuple[GameService, Metrics], time: Time
) -> None:
    service, metrics = metered
    outbox = FlakyOutbox()
    scheduler = Scheduler(service, MeteredCourier(outbox, metrics), on_tick=metrics.ticked)
    await service.notify(ANN, True)
    await start(service, BOB)
    assert sample(metrics, "keystone_picture_seconds_count", picture="field_file") >= 1
    await scheduler.tick()
    assert sample(metrics, "keystone_scheduler_lag_seconds_count") == 0, "nothing was due"
    late = 41.37
    time.now = T0 + 12 * HOUR + late  # the reminder was due 12 hours in
    assert await scheduler.tick() == 2
    assert sample(metrics, "keystone_scheduler_lag_seconds_count") == 1
    assert sample(metrics, "keystone_scheduler_lag_seconds_sum") == pytest.approx(late, abs=0.01)
    assert sample(metrics, "keystone_scheduler_work_total", kind="clocks") == 2, "the reminder and its DM"
    assert sample(metrics, "keystone_scheduler_work_total", kind="delivered") == 2

    time.now = T0 + DAY + 1.5  # Ann's turn runs out: a bot plays it and the channel is told
    moves_before = sample(metrics, "keystone_moves_applied_total", kind="competitive")
    outbox.broken = True
    await scheduler.tick()
    assert sample(metrics, "keystone_moves_applied_total", kind="competitive") > moves_before
    assert sample(metrics, "keystone_post_failures_total", reason="retry") == 1

    await metrics.refresh(service.store, None, {0: True})
    assert sample(metrics, "keystone_games_running", kind="competitive") == 1
    assert sample(metrics, "keystone_games_running", kind="coop") == 0
    assert sample(metrics, "keystone_posts", state="waiting") == 1
    assert sample(metrics, "keystone_shard_connected", shard="0") == 1
    assert sample(Metrics(), "keystone_scheduler_lag_seconds_count") == 0, "each bot counts on its own"


async def test_a_failed_database_operation_is_counted_and_a_refusal_is_not(
    metered: tuple[GameService, Metrics],
) -> None:
    service, metrics = metered
    await service.store.running_games()
    assert (await service.lobby(HERE, ANN, "join")).refused, "no lobby here: the store refuses, nothing failed"
    assert sample(metrics, "keystone_database_errors_total", kind="Closed") == 0
    await service.store.close()
    with pytest.raises(Exception, match="closed"):
        await service.store.ping()
    assert sample(metrics, "keystone_database_errors_total", kind="Closed") == 1


class FlakyOutbox(Outbox):
    """The test outbox, but Discord fails for now while `broken`."""

    broken = False

    async def to_channel(self, channel_id: int, reply: Reply, nonce: str) -> None:
        if self.broken:
            raise NotNow("Discord answered 503 in channel 10")
        await super().to_channel(channel_id, reply, nonce)


def test_a_metered_pool_still_says_how_many_workers_it_has() -> None:
    """Hints and reviews share the workers out by their number: timing the pictures must not hide it."""
    from keystone.app.painter import PoolPainter

    assert MeteredPainter(PoolPainter(3), Metrics()).workers == 3
    assert MeteredPainter(Painter(), Metrics()).workers == 1
