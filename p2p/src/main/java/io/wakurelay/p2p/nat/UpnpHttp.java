package io.wakurelay.p2p.nat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * HTTP to a UPnP gateway with the JDK's client: HTTP/1.1, never through a proxy, no redirects, each exchange bounded
 * in time (connect to last byte) and its body in bytes. Blocking: called from the node's start and the renewal thread,
 * never from an event loop.
 */
final class UpnpHttp {
    private final HttpClient client;
    private final Duration timeout;
    private final int maxBytes;

    UpnpHttp(Duration timeout, int maxBytes) {
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .proxy(HttpClient.Builder.NO_PROXY)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout).build();
        this.timeout = timeout;
        this.maxBytes = maxBytes;
    }

    /** An answer: its status and body. */
    record Answer(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    Answer get(URI uri) throws NatException {
        return send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build());
    }

    /** A SOAP call: {@code SOAPAction: "<service>#<action>"}, the envelope as the body. */
    Answer soap(URI control, String service, String action, String envelope) throws NatException {
        return send(HttpRequest.newBuilder(control).timeout(timeout)
                .header("Content-Type", "text/xml; charset=\"utf-8\"")
                .header("SOAPAction", "\"" + service + "#" + action + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8)).build());
    }

    private Answer send(HttpRequest request) throws NatException {
        CompletableFuture<HttpResponse<byte[]>> response = client.sendAsync(request, info -> new Limited(maxBytes));
        try {
            HttpResponse<byte[]> r = response.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Answer(r.statusCode(), r.body());
        } catch (TimeoutException e) {
            response.cancel(true);
            throw new NatException(request.method() + " " + request.uri() + ": no whole answer within " + timeout);
        } catch (InterruptedException e) {
            response.cancel(true);
            Thread.currentThread().interrupt();
            throw new NatException(request.method() + " " + request.uri() + ": interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            for (Throwable t = cause; t != null; t = t.getCause()) {
                if (t instanceof NatException) {
                    cause = t; // the body's bound
                    break;
                }
            }
            throw new NatException(request.method() + " " + request.uri() + ": "
                    + (cause instanceof NatException ? cause.getMessage() : cause.toString()), cause);
        }
    }

    /** A body of at most {@code limit} bytes: a longer one is cancelled and fails. */
    private static final class Limited implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int limit;
        private Flow.Subscription subscription;

        Limited(int limit) {
            this.limit = limit;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (body.isDone()) {
                    return;
                }
                if (bytes.size() + b.remaining() > limit) {
                    subscription.cancel();
                    body.completeExceptionally(new NatException("the answer is longer than " + limit + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(bytes.toByteArray());
        }
    }
}
