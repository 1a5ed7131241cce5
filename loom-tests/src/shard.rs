//! Splitting the loom cells between processes: loom does not scale across threads in one
//! process (its executions are mostly thread-stack switches), but it does across processes.
//! The gate runs `n` processes of the cell suite, each with `RACELAB_SHARD=k/n`; every process
//! computes the same split from the cells' pinned executions, their cost.

/// The environment variable naming this process's shard, `k/n` (0-based `k`).
pub const SHARD_ENV: &str = "RACELAB_SHARD";

/// Parses `k/n`.
pub fn parse(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{SHARD_ENV}={s:?}: expected k/n with 0 <= k < n");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k < n {
        Ok((k, n))
    } else {
        Err(bad())
    }
}

/// Which of the items (by cost) shard `k` of `n` runs: the longest first, each to the least
/// loaded shard (ties to the lowest), so the shards finish at about the same time.
pub fn mine(costs: &[u64], k: usize, n: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(costs[i]), i));
    let mut load = vec![0u64; n];
    let mut owner = vec![0; costs.len()];
    for i in order {
        let s = (0..n).min_by_key(|&s| (load[s], s)).unwrap_or(0);
        load[s] += costs[i];
        owner[i] = s;
    }
    owner.into_iter().map(|s| s == k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_goes_to_exactly_one_shard_and_the_loads_balance() {
        let costs = [100, 1, 60, 50, 3, 40];
        let a = mine(&costs, 0, 2);
        let b = mine(&costs, 1, 2);
        assert!(a.iter().zip(&b).all(|(x, y)| x != y));
        let load = |m: &[bool]| -> u64 {
            costs
                .iter()
                .zip(m)
                .filter(|(_, t)| **t)
                .map(|(c, _)| c)
                .sum()
        };
        // Longest first, each to the least loaded: 100+40 against 60+50+3+1. Greedy, not
        // optimal (127 each exists), but never off by more than the largest item.
        assert_eq!((load(&a), load(&b)), (140, 114));
    }

    #[test]
    fn bad_shards_are_named() {
        assert_eq!(parse("1/2"), Ok((1, 2)));
        assert!(parse("2/2").unwrap_err().contains("expected k/n"));
        assert!(parse("x").is_err());
    }
}
