package racelab.fix.reconsync;

/** The 2.2.0 classes recon-sync's parts advise. */
final class Targets {
  static final String PROVIDER =
      "org.apache.hadoop.ozone.recon.spi.impl.OzoneManagerServiceProviderImpl";
  static final String CONTROLLER = "org.apache.hadoop.ozone.recon.tasks.ReconTaskControllerImpl";
  static final String HANDLER = "org.apache.hadoop.ozone.recon.tasks.OMDBUpdatesHandler";
  static final String BATCH = "org.apache.hadoop.hdds.utils.db.RDBBatchOperation";

  private Targets() {
  }
}
