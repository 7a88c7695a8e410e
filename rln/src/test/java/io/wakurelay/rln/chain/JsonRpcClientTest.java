package io.wakurelay.rln.chain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The JSON-RPC client against an HTTP server in this JVM that answers what each test says. */
class JsonRpcClientTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTRACT = "0xB9cd878C90E49F797B4431fBF4fb333108CB90e6";

    /** What the server answers: a status, a body in chunks (no Content-Length when more than one), after a delay. */
    private record Answer(int status, List<String> chunks, Duration delay) {
        static Answer ok(String body) {
            return new Answer(200, List.of(body), Duration.ZERO);
        }
    }

    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private volatile Function<JsonNode, Answer> answers = r -> Answer.ok(result(r, "\"0x1\""));
    private DisposableServer server;
    private JsonRpcClient client;
    private URI endpoint;

    @BeforeEach
    void start() {
        server = HttpServer.create().host("127.0.0.1").port(0)
                .handle((req, res) -> req.receive().aggregate().asString(StandardCharsets.UTF_8).flatMap(text -> {
                    JsonNode request = read(text);
                    requests.add(request);
                    Answer a = answers.apply(request);
                    res.status(a.status()).header("Content-Type", "application/json");
                    Mono<Void> send = a.chunks().size() == 1
                            ? res.sendString(Mono.just(a.chunks().get(0))).then()
                            : res.chunkedTransfer(true).sendString(Flux.fromIterable(a.chunks())).then();
                    return Mono.delay(a.delay()).then(send);
                }))
                .bindNow();
        endpoint = URI.create("http://127.0.0.1:" + server.port() + "/v3/the-api-key");
        client = new JsonRpcClient(Duration.ofSeconds(5), 4096); // long: a loaded machine's first call is slow
    }

    @AfterEach
    void stop() {
        client.close();
        server.disposeNow();
    }

    @Test
    void chainIdAndCallAreJsonRpc20RequestsAnsweredById() throws RpcException {
        answers = r -> Answer.ok(result(r, "\"0xe705\""));
        assertThat(client.chainId(endpoint)).isEqualTo(59141);
        JsonNode chainId = requests.get(0);
        assertThat(chainId.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(chainId.path("method").asText()).isEqualTo("eth_chainId");
        assertThat(chainId.path("params").isArray()).isTrue();
        assertThat(chainId.path("params")).isEmpty();

        String word = "0x" + "00".repeat(31) + "2a";
        answers = r -> Answer.ok(result(r, "\"" + word + "\""));
        byte[] returned = client.call(endpoint, CONTRACT, "0xebf0c717");
        assertThat(returned).hasSize(32);
        assertThat(returned[31]).isEqualTo((byte) 42);
        JsonNode call = requests.get(1);
        assertThat(call.path("method").asText()).isEqualTo("eth_call");
        assertThat(call.path("params").get(0).path("to").asText()).isEqualTo(CONTRACT);
        assertThat(call.path("params").get(0).path("data").asText()).isEqualTo("0xebf0c717");
        assertThat(call.path("params").get(1).asText()).isEqualTo("latest");
        assertThat(call.path("id").asLong()).isNotEqualTo(chainId.path("id").asLong());
    }

    @Test
    void anHttpErrorStatusIsAFailedCall() {
        answers = r -> new Answer(503, List.of("busy"), Duration.ZERO);
        assertFails(() -> client.chainId(endpoint), RpcFailure.HTTP_STATUS, "503");
    }

    @Test
    void anAnswerOverTheBoundIsRefusedWhetherItsLengthIsDeclaredOrNot() {
        String big = "\"0x" + "00".repeat(3000) + "\"";
        answers = r -> Answer.ok(result(r, big));
        assertFails(() -> client.call(endpoint, CONTRACT, "0xebf0c717"), RpcFailure.TOO_LARGE, "4096");
        answers = r -> new Answer(200, List.of(result(r, big).substring(0, 3000), result(r, big).substring(3000)),
                Duration.ZERO);
        assertFails(() -> client.call(endpoint, CONTRACT, "0xebf0c717"), RpcFailure.TOO_LARGE, "4096");
    }

    @Test
    void noAnswerWithinTheTimeoutIsATimeout() {
        answers = r -> new Answer(200, List.of(result(r, "\"0x1\"")), Duration.ofSeconds(5));
        try (JsonRpcClient impatient = new JsonRpcClient(Duration.ofMillis(300), 4096)) {
            long start = System.nanoTime();
            assertFails(() -> impatient.chainId(endpoint), RpcFailure.TIMEOUT, "no answer in time");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3000));
        }
    }

    @Test
    void anAnswerThatIsNotOneToTheRequestIsMalformed() {
        answers = r -> Answer.ok("{\"jsonrpc\":\"2.0\",\"id\":" + (r.path("id").asLong() + 1) + ",\"result\":\"0x1\"}");
        assertFails(() -> client.chainId(endpoint), RpcFailure.MALFORMED, "id");
        answers = r -> Answer.ok("<html>not json</html>");
        assertFails(() -> client.chainId(endpoint), RpcFailure.MALFORMED, "not JSON");
        answers = r -> Answer.ok("[" + result(r, "\"0x1\"") + "]");
        assertFails(() -> client.chainId(endpoint), RpcFailure.MALFORMED, "not a JSON-RPC object");
        answers = r -> Answer.ok("{\"jsonrpc\":\"2.0\",\"id\":" + r.path("id").asLong() + "}");
        assertFails(() -> client.chainId(endpoint), RpcFailure.MALFORMED, "neither result nor error");
        answers = r -> Answer.ok(result(r, "42"));
        assertFails(() -> client.chainId(endpoint), RpcFailure.MALFORMED, "not a string");
        answers = r -> Answer.ok(result(r, "\"0xabc\""));
        assertFails(() -> client.call(endpoint, CONTRACT, "0xebf0c717"), RpcFailure.MALFORMED, "hex data");
    }

    @Test
    void aJsonRpcErrorIsReportedWithItsCodeAndMessage() {
        answers = r -> Answer.ok("{\"jsonrpc\":\"2.0\",\"id\":" + r.path("id").asLong()
                + ",\"error\":{\"code\":3,\"message\":\"execution reverted\"}}");
        assertFails(() -> client.call(endpoint, CONTRACT, "0xebf0c717"), RpcFailure.RPC_ERROR,
                "error 3 execution reverted");
    }

    @Test
    void noBytesReturnedMeansNoContractAtTheAddress() {
        answers = r -> Answer.ok(result(r, "\"0x\""));
        assertFails(() -> client.call(endpoint, CONTRACT, "0xebf0c717"), RpcFailure.NO_CONTRACT, CONTRACT);
    }

    @Test
    void aRefusedConnectionIsAConnectionFailureThatNamesNoPartOfThePath() {
        URI nobody = URI.create("http://127.0.0.1:" + freePort() + "/v3/the-api-key");
        RpcException e = catchRpc(() -> client.chainId(nobody));
        assertThat(e.failure()).isEqualTo(RpcFailure.CONNECTION);
        assertThat(e.getMessage()).doesNotContain("the-api-key");
        assertThat(Endpoints.describe(nobody)).isEqualTo("http://127.0.0.1:" + nobody.getPort());
        assertThat(Endpoints.describe(URI.create("https://user:pw@rpc.example/v3/key?x=1")))
                .isEqualTo("https://rpc.example");
    }

    private static void assertFails(ThrowingCallable call, RpcFailure failure, String text) {
        RpcException e = catchRpc(call);
        assertThat(e.failure()).as(e.getMessage()).isEqualTo(failure);
        assertThat(e.getMessage()).contains(text);
    }

    private static RpcException catchRpc(ThrowingCallable call) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(thrown).isInstanceOf(RpcException.class);
        return (RpcException) thrown;
    }

    private static String result(JsonNode request, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id").asLong() + ",\"result\":" + result + "}";
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
