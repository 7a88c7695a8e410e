package io.wakurelay.node.config;

import io.wakurelay.node.WakuNode;
import picocli.CommandLine;

/** --version */
public final class NodeVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"wakurelay-node " + WakuNode.VERSION};
    }
}
