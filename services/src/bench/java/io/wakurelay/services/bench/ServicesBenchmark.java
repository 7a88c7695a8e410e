package io.wakurelay.services.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The services' performance figures (docs/benchmarks.md, "Waku services"):
 * <pre>
 * ./mvnw -q -Pbench -pl services -am package -DskipTests
 * java -jar services/target/services-benchmarks.jar store   # Store v3 over libp2p vs the archive in process
 * java -jar services/target/services-benchmarks.jar filter  # filter push fan-out to 100 subscribers
 * </pre>
 * Everything runs in one process on loopback; the machine's load is printed first.
 */
public final class ServicesBenchmark {
    private ServicesBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: services-benchmarks.jar store|filter [options]");
            System.exit(2);
        }
        System.out.println("# JVM " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", " + Runtime.getRuntime().availableProcessors() + " cores, load average "
                + Files.readString(Path.of("/proc/loadavg")).trim());
        switch (args[0]) {
            case "store" -> StoreQueryLatency.run(args);
            case "filter" -> FilterFanOut.run(args);
            default -> {
                System.err.println("unknown benchmark " + args[0]);
                System.exit(2);
            }
        }
        System.exit(0);
    }
}
