"""Data-parallel training: whole groups per process, exact gradients, same loss trajectory as one process."""

import pytest

from idiomkit.training.distributed import shard_batch


def test_shard_batch_keeps_groups_whole_and_balances_rows():
    groups = [0, 0, 0, 1, 1, 2, 3, 3, 3, 3]
    shards = shard_batch(list(range(10)), groups, 2)
    # group 0 (3 rows) -> rank 0; group 1 (2) -> rank 1; group 2 (1) -> rank 1 (2 < 3); group 3 (4) -> rank 1 (3 = 3,
    # lowest rank wins the tie -> rank 0)
    assert shards == [[0, 1, 2, 6, 7, 8, 9], [3, 4, 5]]
    for shard in shards:
        assert all(groups[i] not in {groups[j] for other in shards if other is not shard for j in other} for i in shard)


def test_shard_batch_needs_a_group_per_process():
    with pytest.raises(ValueError, match="2 label groups cannot be split over 3 processes"):
        shard_batch([0, 1, 2], [5, 5, 6], 3)
