package racelab.search;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.rmi.ScheduleObserver;

/**
 * Diagnosis only (-Dracelab.fray.stacks=<file>): from the point {@link FrayKept#mark} starts it,
 * each scheduling step where two or more threads are enabled, with the scheduled thread's
 * stack (its top frames outside Fray), so that two JVMs' replays of one kept schedule can be
 * compared frame by frame.
 */
final class StackObserver implements ScheduleObserver<ThreadContext> {
  private final List<String> steps = new ArrayList<>();
  /** -Dracelab.fray.stacks.full=true: the first 3 steps with every frame, Fray's too. */
  private final boolean full = Boolean.getBoolean("racelab.fray.stacks.full");

  @Override
  public void onNewSchedule(Collection<? extends ThreadContext> enabled, ThreadContext scheduled) {
    if (enabled.size() < 2) {
      return;
    }
    StringBuilder b = new StringBuilder();
    b.append(scheduled.getIndex()).append(' ').append(enabled.stream().map(t -> t.getIndex())
        .toList()).append(' ').append(scheduled.getPendingOperation().getClass().getSimpleName());
    int n = 0;
    for (StackTraceElement e : scheduled.getThread().getStackTrace()) {
      String c = e.getClassName();
      if (full && steps.size() < 3) {
        b.append("\n    ").append(e);
        continue;
      }
      boolean observer = c.equals(StackObserver.class.getName())
          || c.equals("java.lang.Thread") && e.getMethodName().equals("getStackTrace");
      if (c.startsWith("org.pastalab.fray") || observer) {
        continue;
      }
      b.append("\n    ").append(e);
      if (++n == 14) {
        break;
      }
    }
    steps.add(b.toString());
  }

  @Override
  public void onContextSwitch(ThreadContext current, ThreadContext next) {
  }

  void write(Path file) throws java.io.IOException {
    Object[] copy = steps.toArray();
    Files.write(file, java.util.Arrays.stream(copy).map(String::valueOf).toList());
  }
}
