package org.apache.hadoop.hdfs.server.datanode;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;

/**
 * Fray's search for reregister O6 on hadoop-hdfs 3.5.0 ({@link ReregisterFraySearch#o6}),
 * asserted on upstream, P3, trunk, trunk+P3 together: rows the model reaches it on, each reaching it
 * in about 1 run of 200 (one row alone would fail now and then).
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReregisterO6Test extends ReregisterFraySearch {
  static final Search SEARCH =
      new Search("RR_O6", "O6", ReregisterFraySearch::o6, List.of("upstream", "P3", "trunk", "trunk+P3"));

  @BeforeAll
  static void warm() throws Exception {
    warm(SEARCH);
  }

  @Override
  Search search() {
    return SEARCH;
  }

  @AfterAll
  static void record() {
    SEARCH.finish();
  }
}
