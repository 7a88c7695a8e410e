/**
 * Test support shared by the modules: {@link io.wakurelay.testkit.Eventually} (the one poller),
 * {@link io.wakurelay.testkit.Closer} (what a test started, closed after it, last first) and
 * {@link io.wakurelay.testkit.SmallDisk} (a small tmpfs for disk-full tests).
 *
 * <p>The JavaScript interop harness, in the order a test meets it:
 * <ul>
 *   <li>{@link io.wakurelay.testkit.JsPeer} starts a script of the repository's {@code interop/} directory (a bare
 *       js-libp2p peer, a js-waku relay node, a js-waku light node), sends it commands and waits for its events;</li>
 *   <li>{@code InteropDirectory} finds {@code interop/} (the build passes {@code -Dwakurelay.interop.dir});</li>
 *   <li>{@code NpmInstall} runs {@code interop/install.sh} (npm ci where needed) once per JVM;</li>
 *   <li>{@code LogTail} quotes a script's log in failure messages;</li>
 *   <li>{@link io.wakurelay.testkit.JsCommandException} is a command the script answered with an error;</li>
 *   <li>{@link io.wakurelay.testkit.EchoData} is the deterministic data of the {@code echo} command;</li>
 *   <li>{@link io.wakurelay.testkit.Anvil} is a local Ethereum node (Foundry's anvil, started by the
 *       {@code chain/anvil.mjs} script) with our membership contract for the RLN tests.</li>
 * </ul>
 * The scripts' arguments, commands and events are in {@code interop/README.md}.
 *
 * <p>{@link io.wakurelay.testkit.FakeTime} moves the wall clock of a child process (a node JVM) with Debian's
 * libfaketime, for the tests that run a node at the RLN test vectors' time.
 *
 * <p>Other servers and files a test needs: {@link io.wakurelay.testkit.PostgresServer} (a real PostgreSQL cluster per
 * test class, its programs found or installed by {@code PostgresInstall}), {@link io.wakurelay.testkit.TestCertificates}
 * (a self-signed certificate for {@code /wss}), and {@code Processes} (a short command run to its end).
 */
package io.wakurelay.testkit;
