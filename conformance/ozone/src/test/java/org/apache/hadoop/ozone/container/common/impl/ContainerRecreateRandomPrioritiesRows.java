package org.apache.hadoop.ozone.container.common.impl;

import static org.pastalab.fray.core.command.SystemTimeDelegateType.MOCK;

import org.pastalab.fray.junit.junit5.annotations.ConcurrencyTest;
import racelab.search.RandomPriorities;

/**
 * The headline rows of a container-recreate Fray search under {@link RandomPriorities}: one
 * {@code @ConcurrencyTest} per row (Fray 0.9.2 has no parameterized form), each running the
 * subclass's {@link #row} with its variant. The write race and the R1 and R3 windows share them;
 * R2, under another scheduler, has its own.
 */
abstract class ContainerRecreateRandomPrioritiesRows {
  static final int ITERATIONS = 200;

  /** One Fray iteration on {@code variant}'s row. */
  abstract void row(String variant) throws Exception;

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void upstream() throws Exception {
    row("upstream");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P1() throws Exception {
    row("P1");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P2() throws Exception {
    row("P2");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P4() throws Exception {
    row("P4");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P5() throws Exception {
    row("P5");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P6() throws Exception {
    row("P6");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void tombstone() throws Exception {
    row("tombstone");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P7() throws Exception {
    row("P7");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void P8() throws Exception {
    row("P8");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void proposed() throws Exception {
    row("proposed");
  }

  @ConcurrencyTest(iterations = ITERATIONS, systemTimeDelegateType = MOCK,
      scheduler = RandomPriorities.class)
  public void improved() throws Exception {
    row("improved");
  }
}
