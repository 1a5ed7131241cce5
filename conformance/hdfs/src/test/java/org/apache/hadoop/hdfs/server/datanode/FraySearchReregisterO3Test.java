package org.apache.hadoop.hdfs.server.datanode;

import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import racelab.search.FraySearch;

/**
 * Fray's search for reregister O3 on hadoop-hdfs 3.5.0 ({@link ReregisterFraySearch#o3}),
 * asserted on upstream: a row the model reaches it on and this search did in its first runs.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReregisterO3Test extends ReregisterFraySearch {
  static final FraySearch SEARCH = search("RR_O3", "O3");

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, ReregisterFraySearch::o3);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> race() {
    return ReregisterFraySearch::o3;
  }

  @AfterAll
  static void record() {
    SEARCH.finish(List.of("upstream"));
  }
}
