package io.wakurelay.p2p.ws;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import javax.net.ssl.SSLException;
import java.net.URI;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * libp2p over WebSocket: what goes on a socket before libp2p's own upgrade. Listening: TLS (for {@code /wss}), the
 * HTTP codec and {@link WebSocketAcceptor}; dialling: TLS (for {@code /wss}, checking the server's name), the HTTP
 * codec and {@link WebSocketDialHandshake}. Either calls back once binary frames flow, and libp2p's upgrade
 * (multistream-select, Noise, a muxer) runs on them as on a TCP socket.
 */
public final class WebSocketTransport {
    /** HTTP request line and headers of an upgrade request; a browser's is under 2 KiB. */
    private static final int MAX_HEADER_BYTES = 8192;
    /** An upgrade request has no body; a request with one larger than this is answered 413. */
    private static final int MAX_BODY_BYTES = 1024;
    private static final int MAX_RESPONSE_BYTES = 8192;

    private final WebSocketConfig config;
    private final WebSocketEvents events;
    private final SslContext serverTls;
    private final WebSocketDecoderConfig serverFrames;
    private SslContext clientTls; // made at the first /wss dial

    private WebSocketTransport(WebSocketConfig config, WebSocketEvents events, SslContext serverTls) {
        this.config = config;
        this.events = events;
        this.serverTls = serverTls;
        this.serverFrames = WebSocketDecoderConfig.newBuilder().maxFramePayloadLength(config.maxFrameBytes())
                .expectMaskedFrames(true).allowMaskMismatch(false).allowExtensions(false)
                .closeOnProtocolViolation(false).build();
    }

    /**
     * The transport of {@code config}: with its certificate and key read and checked when it listens with TLS.
     *
     * @throws IllegalArgumentException naming the file that cannot be read or is wrong
     */
    public static WebSocketTransport create(WebSocketConfig config, WebSocketEvents events) {
        Objects.requireNonNull(config, "config");
        SslContext serverTls = null;
        if (config.listen() && config.secure()) {
            PemFiles.ServerIdentity identity = PemFiles.serverIdentity(config.certPath(), config.keyPath());
            try {
                X509Certificate[] chain = identity.chain().toArray(X509Certificate[]::new);
                serverTls = SslContextBuilder.forServer(identity.key(), chain).build();
            } catch (SSLException e) {
                throw new IllegalArgumentException("cannot make a TLS server of " + config.certPath() + " and "
                        + config.keyPath() + ": " + e.getMessage(), e);
            }
        }
        return new WebSocketTransport(config, events, serverTls);
    }

    public WebSocketConfig config() {
        return config;
    }

    /** Whether the listener speaks TLS ({@code /wss}). */
    public boolean secure() {
        return serverTls != null;
    }

    /**
     * Puts the listening side of the transport before the handler named {@code before} of an accepted socket;
     * {@code ready} runs (on the event loop) once the WebSocket is up.
     */
    public void installListening(ChannelPipeline pipeline, String before, Runnable ready) {
        if (serverTls != null) {
            pipeline.addBefore(before, "tls-renegotiation", new TlsRenegotiationGuard(events));
            pipeline.addBefore(before, "tls", serverTls.newHandler(pipeline.channel().alloc()));
        }
        pipeline.addBefore(before, "http-codec", new HttpServerCodec(4096, MAX_HEADER_BYTES, 8192));
        pipeline.addBefore(before, "http-aggregator", new HttpObjectAggregator(MAX_BODY_BYTES));
        pipeline.addBefore(before, "ws-accept", new WebSocketAcceptor(serverFrames, secure(), events, ready));
    }

    /**
     * Puts the dialling side before the handler named {@code before} of a socket being connected to {@code host}
     * (an IP or a DNS name, the HTTP Host and, with TLS, the name the certificate must carry) and {@code port}.
     */
    public void installDialling(ChannelPipeline pipeline, String before, String host, int port, boolean tls,
                                Runnable ready) {
        if (tls) {
            pipeline.addBefore(before, "tls", clientTls().newHandler(pipeline.channel().alloc(), host, port));
        }
        pipeline.addBefore(before, "http-codec", new HttpClientCodec());
        pipeline.addBefore(before, "http-aggregator", new HttpObjectAggregator(MAX_RESPONSE_BYTES));
        String authority = host.indexOf(':') >= 0 ? "[" + host + "]" : host; // an IPv6 literal
        URI uri = URI.create((tls ? "wss://" : "ws://") + authority + ":" + port + WebSocketAcceptor.PATH);
        pipeline.addBefore(before, "ws-dial", new WebSocketDialHandshake(uri, config.maxFrameBytes(), events, ready));
    }

    private synchronized SslContext clientTls() {
        if (clientTls == null) {
            SslContextBuilder builder = SslContextBuilder.forClient(); // checks the server's name (Netty 4.2: HTTPS)
            if (!config.trustedCertificates().isEmpty()) {
                List<X509Certificate> trusted = new ArrayList<>();
                for (Path p : config.trustedCertificates()) {
                    trusted.addAll(PemFiles.certificates(p));
                }
                builder.trustManager(trusted.toArray(X509Certificate[]::new));
            }
            try {
                clientTls = builder.build();
            } catch (SSLException e) {
                throw new IllegalStateException("cannot make a TLS client: " + e.getMessage(), e);
            }
        }
        return clientTls;
    }
}
