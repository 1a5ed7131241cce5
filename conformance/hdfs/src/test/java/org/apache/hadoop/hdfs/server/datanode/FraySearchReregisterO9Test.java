package org.apache.hadoop.hdfs.server.datanode;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;

/**
 * Fray's search for reregister O9 on hadoop-hdfs 3.5.0 ({@link ReregisterFraySearch#o9}),
 * asserted on upstream: a row the model reaches it on and this search did in its first runs.
 */
@ExtendWith(FrayTestExtension.class)
public class FraySearchReregisterO9Test extends ReregisterFraySearch {
  static final Search SEARCH =
      new Search("RR_O9", "O9", ReregisterFraySearch::o9, List.of("upstream"));

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
