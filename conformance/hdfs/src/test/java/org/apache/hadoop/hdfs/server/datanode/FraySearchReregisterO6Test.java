package org.apache.hadoop.hdfs.server.datanode;

import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import racelab.search.FraySearch;

/**
 * Fray's search for reregister O6 on hadoop-hdfs 3.5.0 ({@link ReregisterFraySearch#o6}),
 * asserted on upstream, P3, trunk, trunk+P3 together: rows the model reaches it on, each reaching it
 * in about 1 run of 200 (one row alone would fail now and then).
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReregisterO6Test extends ReregisterFraySearch {
  static final FraySearch SEARCH = search("RR_O6", "O6");

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH, ReregisterFraySearch::o6);
  }

  @Override
  FraySearch search() {
    return SEARCH;
  }

  @Override
  Callable<FraySearch.Verdict> race() {
    return ReregisterFraySearch::o6;
  }

  @AfterAll
  static void record() {
    SEARCH.finish(List.of("upstream", "P3", "trunk", "trunk+P3"));
  }
}
