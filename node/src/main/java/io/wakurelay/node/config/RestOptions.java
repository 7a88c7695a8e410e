package io.wakurelay.node.config;

import io.wakurelay.node.rest.RestConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** The REST API's options (nwaku's names where nwaku has the option), a picocli mixin of {@link NodeOptions}. */
public final class RestOptions {
    @Option(names = "--rest", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve the REST API")
    boolean rest;

    @Option(names = "--rest-address", paramLabel = "IP", description = "interface of the REST API")
    String restAddress;

    @Option(names = "--rest-port", paramLabel = "PORT", description = "port of the REST API")
    int restPort;

    @Option(names = "--rest-admin", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "serve /admin endpoints")
    boolean restAdmin;

    @Option(names = "--rest-max-body-size", paramLabel = "SIZE", description = "largest REST request body")
    String restMaxBodySize;

    @Option(names = "--rest-relay-cache-capacity", paramLabel = "N",
            description = "messages kept per cached topic (the topics the node starts with, and those subscribed over REST)")
    int restCacheCapacity;

    @Option(names = "--rest-relay-cache-size", paramLabel = "SIZE",
            description = "bytes the REST relay caches of all topics hold alive together")
    String restCacheSize;

    @Option(names = "--rest-max-streams", paramLabel = "N", description = "concurrent Server-Sent Event streams")
    int restMaxStreams;

    @Option(names = "--rest-stream-buffer-size", paramLabel = "SIZE",
            description = "bytes of events one Server-Sent Event stream holds for a slow reader before dropping (an empty stream "
                    + "takes one event whatever its size)")
    String restStreamBufferSize;

    @Option(names = "--rest-streams-memory", paramLabel = "SIZE",
            description = "bytes of events all Server-Sent Event streams together hold for slow readers before dropping")
    String restStreamsMemory;

    @Option(names = "--rest-allow-origin", paramLabel = "ORIGIN", split = ",",
            description = "browser origin allowed to call the REST API, as nwaku: * and ? are wildcards, e.g. \"localhost:*\" "
                    + "or \"https://app.example\" (repeatable); requests from any other origin are refused")
    List<String> restAllowOrigins = new ArrayList<>();

    @Option(names = "--rest-allow-host", paramLabel = "NAME", split = ",",
            description = "host name accepted in the Host header of REST and /metrics requests besides the bound IP address "
                    + "and localhost (repeatable; * accepts any); other names are refused, which defeats DNS rebinding")
    List<String> restAllowHosts = new ArrayList<>();

    /**
     * The REST API's config, null when it is off.
     *
     * @param shift        {@code --ports-shift}
     * @param contentTopics the content topics whose messages REST caches from the start
     */
    RestConfig rest(IntUnaryOperator shift, List<String> contentTopics) {
        return !rest ? null : NodeOptions.option("REST options", () -> NodeConfig.DEFAULTS.rest().toBuilder()
                .address(restAddress).port(shift.applyAsInt(restPort)).admin(restAdmin)
                .maxBodyBytes((int) Math.min(Integer.MAX_VALUE, ByteSize.parse(restMaxBodySize)))
                .cacheCapacity(restCacheCapacity).cacheBytes(ByteSize.parse(restCacheSize)).maxStreams(restMaxStreams)
                .streamBufferBytes(ByteSize.parse(restStreamBufferSize)).streamsMemoryBytes(ByteSize.parse(restStreamsMemory))
                .allowOrigins(restAllowOrigins).allowHosts(restAllowHosts)
                .contentTopics(contentTopics).build());
    }
}
