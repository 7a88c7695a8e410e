package io.wakurelay.rln.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.timeout.ReadTimeoutException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * JSON-RPC 2.0 over HTTP POST with Reactor Netty's client, no Ethereum library: one request, one answer, matched by
 * id. Each call is bounded in time (connecting, sending and the whole answer within the timeout) and in size (a longer
 * answer is refused as it arrives, not read to its end). The client runs on one event-loop thread of its own
 * ({@code rln-rpc}) with a small connection pool; {@link #chainId} and {@link #call} block their caller, which is the
 * roots' own thread ({@code rln-chain}), never an event loop.
 */
final class JsonRpcClient implements EthRpc {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Added to the call's timeout for the blocking wait, so that the call's own timeout is what fires. */
    private static final Duration BLOCK_MARGIN = Duration.ofSeconds(1);

    private final LoopResources loops;
    private final ConnectionProvider pool;
    private final HttpClient http;
    private final Duration timeout;
    private final int maxResponseBytes;
    private final AtomicLong ids = new AtomicLong();

    JsonRpcClient(Duration timeout, int maxResponseBytes) {
        this.timeout = timeout;
        this.maxResponseBytes = maxResponseBytes;
        this.loops = LoopResources.create("rln-rpc", 1, true);
        this.pool = ConnectionProvider.builder("rln-rpc")
                .maxConnections(4)
                .pendingAcquireMaxCount(8)
                .pendingAcquireTimeout(timeout)
                .maxIdleTime(Duration.ofSeconds(30))
                .build();
        this.http = HttpClient.create(pool)
                .runOn(loops)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .responseTimeout(timeout)
                .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                        .set(HttpHeaderNames.ACCEPT, HttpHeaderValues.APPLICATION_JSON));
    }

    @Override
    public long chainId(URI endpoint) throws RpcException {
        JsonNode result = request(endpoint, "eth_chainId", JSON.createArrayNode());
        try {
            return Abi.quantity(text(result));
        } catch (IllegalArgumentException e) {
            throw new RpcException(RpcFailure.MALFORMED, "eth_chainId: " + e.getMessage());
        }
    }

    @Override
    public byte[] call(URI endpoint, String contract, String callData) throws RpcException {
        ArrayNode params = JSON.createArrayNode();
        params.addObject().put("to", contract).put("data", callData);
        params.add("latest");
        JsonNode result = request(endpoint, "eth_call", params);
        byte[] returned;
        try {
            returned = Abi.data(text(result));
        } catch (IllegalArgumentException e) {
            throw new RpcException(RpcFailure.MALFORMED, "eth_call: " + e.getMessage());
        }
        if (returned.length == 0) {
            throw new RpcException(RpcFailure.NO_CONTRACT, "eth_call of " + callData + " to " + contract
                    + " returned no bytes");
        }
        return returned;
    }

    /** One JSON-RPC request: its {@code result}, or why there is none. */
    JsonNode request(URI endpoint, String method, ArrayNode params) throws RpcException {
        long id = ids.incrementAndGet();
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(request);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a JSON-RPC request", e);
        }
        byte[] answer = post(endpoint, body, method);
        return result(answer, id, method);
    }

    private byte[] post(URI endpoint, byte[] body, String method) throws RpcException {
        try {
            byte[] answer = http.post()
                    .uri(endpoint)
                    .send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                    .response(this::read)
                    .next()
                    .timeout(timeout)
                    .block(timeout.plus(BLOCK_MARGIN));
            if (answer == null) {
                throw new RpcException(RpcFailure.MALFORMED, method + ": an empty answer");
            }
            return answer;
        } catch (RuntimeException e) {
            throw classify(Exceptions.unwrap(e), method);
        }
    }

    /** The answer's body, refused as soon as it is known to be longer than the bound. */
    private Mono<byte[]> read(HttpClientResponse response, ByteBufFlux content) {
        int status = response.status().code();
        if (status != 200) {
            return Mono.error(new RpcException(RpcFailure.HTTP_STATUS, "HTTP status " + status));
        }
        String length = response.responseHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (length != null && tooLong(length)) {
            return Mono.error(new RpcException(RpcFailure.TOO_LARGE, "an answer of " + Abi.shorten(length)
                    + " bytes, over the bound of " + maxResponseBytes));
        }
        return content.asByteArray()
                .reduce(new ByteArrayOutputStream(), (into, chunk) -> {
                    if (into.size() + chunk.length > maxResponseBytes) {
                        throw Exceptions.propagate(new RpcException(RpcFailure.TOO_LARGE,
                                "an answer over the bound of " + maxResponseBytes + " bytes"));
                    }
                    into.writeBytes(chunk);
                    return into;
                })
                .map(ByteArrayOutputStream::toByteArray);
    }

    private boolean tooLong(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > maxResponseBytes;
        } catch (NumberFormatException e) {
            return false; // the bound on what arrives still holds
        }
    }

    private static JsonNode result(byte[] answer, long id, String method) throws RpcException {
        JsonNode root;
        try {
            root = JSON.readTree(answer);
        } catch (IOException e) {
            throw new RpcException(RpcFailure.MALFORMED, method + ": the answer is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new RpcException(RpcFailure.MALFORMED, method + ": the answer is not a JSON-RPC object");
        }
        JsonNode answeredId = root.get("id");
        if (answeredId == null || !answeredId.canConvertToLong() || answeredId.asLong() != id) {
            throw new RpcException(RpcFailure.MALFORMED, method + ": the answer's id is not the request's");
        }
        JsonNode error = root.get("error");
        if (error != null && !error.isNull()) {
            throw new RpcException(RpcFailure.RPC_ERROR, method + ": error " + error.path("code").asText("?") + " "
                    + Abi.shorten(error.path("message").asText("")));
        }
        JsonNode result = root.get("result");
        if (result == null) {
            throw new RpcException(RpcFailure.MALFORMED, method + ": the answer has neither result nor error");
        }
        return result;
    }

    private static String text(JsonNode result) {
        if (!result.isTextual()) {
            throw new IllegalArgumentException("the result is not a string: " + Abi.shorten(result.toString()));
        }
        return result.asText();
    }

    private static RpcException classify(Throwable e, String method) {
        if (e instanceof RpcException rpc) {
            return new RpcException(rpc.failure(), method + ": " + rpc.getMessage());
        }
        if (e instanceof TimeoutException || e instanceof ReadTimeoutException || e instanceof ConnectTimeoutException
                || e instanceof IllegalStateException && String.valueOf(e.getMessage()).startsWith("Timeout")) {
            return new RpcException(RpcFailure.TIMEOUT, method + ": no answer in time");
        }
        String what = e.getMessage() == null ? e.getClass().getSimpleName() : Abi.shorten(e.getMessage());
        return new RpcException(RpcFailure.CONNECTION, method + ": " + what);
    }

    @Override
    public void close() {
        pool.disposeLater().block(Duration.ofSeconds(5));
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(2)).block(Duration.ofSeconds(5));
    }
}
