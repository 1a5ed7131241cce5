package racelab.search;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.pastalab.fray.core.scheduler.POSScheduler;

/** A search refuses an iteration that its named scheduler did not schedule. */
class NamedSchedulerTest {
  @Test
  void theNamedSchedulerMakingChoicesPasses() {
    assertDoesNotThrow(() -> FraySearch.checkScheduler(RandomPriorities.class,
        new RandomPriorities(), 10, 250));
    // Fray's own schedulers are checked by class only: racelab does not count their choices
    assertDoesNotThrow(() -> FraySearch.checkScheduler(POSScheduler.class, new POSScheduler(),
        10, 10));
  }

  @Test
  void anotherSchedulerFails() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FraySearch.checkScheduler(OneChangePoint.class, new POSScheduler(), 10, 250));
    assertEquals("racelab search: the test names the scheduler racelab.search.OneChangePoint, "
        + "but the iteration ran under org.pastalab.fray.core.scheduler.POSScheduler",
        e.getMessage());
    IllegalStateException none = assertThrows(IllegalStateException.class,
        () -> FraySearch.checkScheduler(RandomPriorities.class, null, 10, 250));
    assertEquals("racelab search: the test names the scheduler racelab.search.RandomPriorities, "
        + "but the iteration ran under no scheduler", none.getMessage());
  }

  @Test
  void theNamedSchedulerMakingNoChoiceFails() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FraySearch.checkScheduler(OneChangePoint.class, new OneChangePoint(), 10, 10));
    assertEquals("racelab search: the test names the scheduler racelab.search.OneChangePoint, "
        + "but the iteration made no choice of OneChangePoint's", e.getMessage());
  }
}
