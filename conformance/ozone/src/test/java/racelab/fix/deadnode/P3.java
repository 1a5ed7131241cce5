package racelab.fix.deadnode;

import net.bytebuddy.asm.Advice;
import org.apache.hadoop.hdds.protocol.DatanodeDetails;
import org.apache.hadoop.hdds.protocol.DatanodeID;
import org.apache.hadoop.hdds.protocol.proto.StorageContainerDatanodeProtocolProtos.LayoutVersionProto;
import org.apache.hadoop.hdds.upgrade.HDDSLayoutVersionManager;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.recon.scm.ReconNodeManager;
import racelab.fix.Part;

/** dead-node P3: ReconNodeManager.loadExistingNodes does not register known nodes again. */
public final class P3 extends Part {
  public static final P3 PART = new P3();

  private P3() {
    super("dead-node");
    advise("org.apache.hadoop.ozone.recon.scm.ReconNodeManager", "loadExistingNodes",
        SkipKnown.class);
  }

  @Override
  public String renders() {
    return "ReconNodeManager.loadExistingNodes (constructor and reinitialize, on the caller's "
        + "thread) iterates the node table and registers only rows whose node isNodeRegistered "
        + "does not know, with the released call's arguments (null reports, the maximum layout "
        + "version); as the model";
  }

  /** The replacement body. */
  public static void loadUnknown(ReconNodeManager nm, Table<DatanodeID, DatanodeDetails> nodeDB)
      throws Exception {
    try (Table.KeyValueIterator<DatanodeID, DatanodeDetails> it = nodeDB.iterator()) {
      while (it.hasNext()) {
        DatanodeDetails dn = it.next().getValue();
        if (Boolean.TRUE.equals(nm.isNodeRegistered(dn))) {
          continue;
        }
        nm.register(dn, null, null, LayoutVersionProto.newBuilder()
            .setMetadataLayoutVersion(HDDSLayoutVersionManager.maxLayoutVersion())
            .setSoftwareLayoutVersion(HDDSLayoutVersionManager.maxLayoutVersion()).build());
      }
    }
  }

  /** Replaces the body when on. */
  public static final class SkipKnown {
    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This ReconNodeManager nm,
        @Advice.FieldValue("nodeDB") Table<DatanodeID, DatanodeDetails> nodeDB) throws Exception {
      if (!P3.PART.on()) {
        return false;
      }
      P3.loadUnknown(nm, nodeDB);
      return true;
    }
  }
}
