package io.wakurelay.node.config;

import picocli.CommandLine;

/** --version */
public final class NodeVersion implements CommandLine.IVersionProvider {
    /** This build's version (the jar's Implementation-Version), or {@code dev} when run from classes. */
    public static final String VERSION = versionOf();

    private static String versionOf() {
        String v = NodeVersion.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[]{"wakurelay-node " + VERSION};
    }
}
