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

/// [`mine`] for items that share work, each given as (group, exploration, cost): the items of
/// one group go to one shard, and a group costs the sum of its explorations, each what its
/// costliest item costs (the items of one exploration share it).
pub fn mine_grouped(items: &[(String, String, u64)], k: usize, n: usize) -> Vec<bool> {
    let explorations = group_costs(
        items
            .iter()
            .map(|(group, exploration, cost)| ((group.as_str(), exploration.as_str()), *cost)),
    );
    let mut groups: Vec<(&str, u64)> = Vec::new();
    for ((group, _), cost) in explorations {
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, c)) => *c += cost,
            None => groups.push((group, cost)),
        }
    }
    let costs: Vec<u64> = groups.iter().map(|(_, c)| *c).collect();
    let owned = mine(&costs, k, n);
    items
        .iter()
        .map(|(group, _, _)| {
            let g = groups.iter().position(|(g, _)| g == group);
            g.is_some_and(|g| owned[g])
        })
        .collect()
}

/// The groups of `items` (by key, in first-seen order), each with the cost of its costliest
/// item: what one shared exploration costs.
pub fn group_costs<K: PartialEq>(items: impl IntoIterator<Item = (K, u64)>) -> Vec<(K, u64)> {
    let mut groups: Vec<(K, u64)> = Vec::new();
    for (key, cost) in items {
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, c)) => *c = (*c).max(cost),
            None => groups.push((key, cost)),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_goes_to_one_shard_and_costs_the_sum_of_its_explorations() {
        let items: Vec<(String, String, u64)> = [
            ("a", "a1", 100),
            ("b", "b1", 90),
            ("a", "a1", 60),
            ("c", "c1", 20),
            ("b", "b2", 50),
        ]
        .iter()
        .map(|(g, e, c)| (g.to_string(), e.to_string(), *c))
        .collect();
        // a costs 100 (one exploration), b 90 + 50, c 20: b alone, then a and c.
        let first = mine_grouped(&items, 0, 2);
        let second = mine_grouped(&items, 1, 2);
        assert_eq!(first, [false, true, false, false, true]);
        assert_eq!(second, [true, false, true, true, false]);
    }

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
