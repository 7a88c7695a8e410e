package io.wakurelay.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A local Ethereum node for the RLN tests: Foundry's anvil on 127.0.0.1 (the binary of the npm package
 * {@code @foundry-rs/anvil-linux-amd64}, run by {@code interop/chain/anvil.mjs} through {@link JsPeer}), with our
 * membership contract for tests ({@code interop/chain/contracts/RlnMembershipForTests.sol}, compiled by solc-js when
 * the chain starts). It offers the read interface nwaku calls on The Waku Network's contract ({@code root()},
 * {@code nextFreeIndex()}, {@code maxMembershipRateLimit()}) and test-only setters; transactions are sent from
 * anvil's first unlocked dev account and mined at once.
 *
 * <pre>{@code
 * try (Anvil anvil = Anvil.start(Anvil.TWN_CHAIN_ID)) {
 *     anvil.placeMembershipContract(Anvil.TWN_CONTRACT);          // The Waku Network's address, via anvil_setCode
 *     anvil.register(Anvil.TWN_CONTRACT, root);                  // one registration, after which the root is root
 * }
 * }</pre>
 *
 * <p>anvil ends with its script: on {@link #close()}, when the JVM ends (the script's stdin closes), or after
 * {@code --timeout-s} (300 s).
 */
public final class Anvil implements AutoCloseable {
    /** The Waku Network's membership contract (Linea Sepolia; nwaku's {@code networks_config.nim}). */
    public static final String TWN_CONTRACT = "0xB9cd878C90E49F797B4431fBF4fb333108CB90e6";
    /** Linea Sepolia's chain id, The Waku Network's chain. */
    public static final long TWN_CHAIN_ID = 59141;
    /** anvil's own default chain id. */
    public static final long ANVIL_CHAIN_ID = 31337;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final JsPeer script;
    private final URI rpc;
    private final int port;
    private final long chainId;
    private final JsonNode contract;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private long ids;
    private String account;

    private Anvil(JsPeer script) {
        this.script = script;
        JsonNode ready = script.readyLine();
        this.rpc = URI.create(ready.path("rpc").asText());
        this.port = ready.path("port").asInt();
        this.chainId = ready.path("chainId").asLong();
        this.contract = ready.path("contract");
    }

    /** anvil on a free port of 127.0.0.1, reporting {@code chainId}. */
    public static Anvil start(long chainId) {
        return start(chainId, 0);
    }

    /** anvil on {@code port} of 127.0.0.1 (0: a free one), reporting {@code chainId}; a fresh chain each time. */
    public static Anvil start(long chainId, int port) {
        return new Anvil(JsPeer.start(JsPeer.Script.CHAIN, List.of("--chain-id", Long.toString(chainId), "--port",
                Integer.toString(port))));
    }

    /** The JSON-RPC endpoint, {@code http://127.0.0.1:<port>}. */
    public URI rpcUri() {
        return rpc;
    }

    public int port() {
        return port;
    }

    public long chainId() {
        return chainId;
    }

    /** Deploys the membership contract for tests; returns its address (lower-case hex). */
    public String deployMembershipContract() {
        JsonNode receipt = transact(null, contract.path("bytecode").asText());
        return receipt.path("contractAddress").asText();
    }

    /**
     * Places the contract's runtime code at {@code address} ({@code anvil_setCode}), as if it had been deployed there:
     * at The Waku Network's address, for instance. The storage there starts zeroed; the contract needs no more.
     */
    public void placeMembershipContract(String address) {
        rpc("anvil_setCode", address, contract.path("deployedBytecode").asText());
    }

    /** One registration: the contract's root becomes {@code root}, its {@code nextFreeIndex()} one more. */
    public void register(String address, BigInteger root) {
        transact(address, calldata("register(uint256)", root));
    }

    /** Sets the contract's root and {@code nextFreeIndex()} at once. */
    public void setState(String address, BigInteger root, long nextFreeIndex) {
        transact(address, calldata("setState(uint256,uint32)", root, BigInteger.valueOf(nextFreeIndex)));
    }

    /** Writes one storage slot of {@code address} ({@code anvil_setStorageAt}); see the contract for its layout. */
    public void setStorageAt(String address, BigInteger slot, BigInteger value) {
        rpc("anvil_setStorageAt", address, word(slot), word(value));
    }

    /** {@code eth_call} of a function without parameters that returns one integer, e.g. {@code root()}. */
    public BigInteger callUint(String address, String signature) {
        ObjectNode call = JSON.createObjectNode().put("to", address).put("data", calldata(signature));
        String result = rpc("eth_call", call, "latest").asText();
        return result.length() <= 2 ? BigInteger.ZERO : new BigInteger(result.substring(2), 16);
    }

    /** A JSON-RPC call to anvil: its result; fails the test on an error answer. */
    public JsonNode rpc(String method, Object... params) {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++ids).put("method", method);
        ArrayNode array = request.putArray("params");
        for (Object param : params) {
            array.add(JSON.valueToTree(param));
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(rpc).timeout(CALL_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(request))).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode answer = JSON.readTree(response.body());
            if (response.statusCode() != 200 || answer.has("error")) {
                return fail("anvil answered " + method + " with " + response.statusCode() + " " + response.body()
                        + "\n" + LogTail.of(script.logFile()));
            }
            return answer.path("result");
        } catch (IOException e) {
            return fail("cannot call " + method + " on anvil at " + rpc + ": " + e + "\n" + LogTail.of(script.logFile()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while calling " + method + " on anvil");
        }
    }

    /** Sends a transaction from anvil's first dev account (to null: a deployment) and returns its mined receipt. */
    private JsonNode transact(String to, String data) {
        ObjectNode tx = JSON.createObjectNode().put("from", account()).put("data", data);
        if (to != null) {
            tx.put("to", to);
        }
        String hash = rpc("eth_sendTransaction", tx).asText();
        JsonNode receipt = rpc("eth_getTransactionReceipt", hash);
        long deadline = System.nanoTime() + CALL_TIMEOUT.toNanos();
        while (receipt.isNull() && System.nanoTime() < deadline) { // mined at once, but the receipt may come a bit later
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting for the receipt of " + hash);
            }
            receipt = rpc("eth_getTransactionReceipt", hash);
        }
        if (!"0x1".equals(receipt.path("status").asText())) {
            fail("the transaction " + data.substring(0, Math.min(10, data.length())) + " to " + to + " failed: "
                    + receipt);
        }
        return receipt;
    }

    private String account() {
        if (account == null) {
            account = rpc("eth_accounts").get(0).asText();
        }
        return account;
    }

    /** The selector of {@code signature} (from solc's method identifiers) and the arguments, one word each. */
    private String calldata(String signature, BigInteger... words) {
        String selector = contract.path("methodIdentifiers").path(signature).asText();
        if (selector.isEmpty()) {
            fail("the membership contract for tests has no " + signature);
        }
        StringBuilder data = new StringBuilder("0x").append(selector);
        for (BigInteger w : words) {
            data.append(word(w), 2, 66);
        }
        return data.toString();
    }

    private static String word(BigInteger value) {
        if (value.signum() < 0 || value.bitLength() > 256) {
            throw new IllegalArgumentException("not a uint256: " + value);
        }
        String hex = value.toString(16).toLowerCase(Locale.ROOT);
        return "0x" + "0".repeat(64 - hex.length()) + hex;
    }

    /** Whether anvil's script is still running. */
    public boolean isAlive() {
        return script.isAlive();
    }

    /** Stops anvil; its port is free again once this returns. */
    @Override
    public void close() {
        script.close();
    }

    @Override
    public String toString() {
        return "anvil at " + rpc + " (chain " + chainId + ")";
    }
}
