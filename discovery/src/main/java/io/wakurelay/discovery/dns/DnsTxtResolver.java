package io.wakurelay.discovery.dns;

import io.netty.buffer.ByteBuf;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponse;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.wakurelay.discovery.dns.EnrTreeException.Kind;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * TXT queries over UDP with Netty's DNS resolver, to the given name servers in turn (the next one only when one
 * fails), each query bounded by the timeout. No cache: each sync reads the tree as it is now. Owns one event loop
 * thread; {@link #close()} ends it.
 */
public final class DnsTxtResolver implements TxtResolver, AutoCloseable {
    /** A TXT answer longer than this is refused (EIP-1459 entries are a few hundred bytes). */
    static final int MAX_TEXT = 4096;

    private final EventLoopGroup group;
    private final DnsNameResolver resolver;
    private final List<InetSocketAddress> nameServers;
    private final Duration timeout;

    public DnsTxtResolver(List<InetSocketAddress> nameServers, Duration timeout) {
        if (nameServers.isEmpty()) {
            throw new IllegalArgumentException("at least one name server is needed");
        }
        this.nameServers = List.copyOf(nameServers);
        this.timeout = timeout;
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.resolver = new DnsNameResolverBuilder(group.next())
                .datagramChannelType(NioDatagramChannel.class)
                .nameServerProvider(new SequentialDnsServerAddressStreamProvider(this.nameServers))
                .queryTimeoutMillis(timeout.toMillis())
                .recursionDesired(true)
                .build();
    }

    @Override
    public String txt(String name) throws EnrTreeException {
        String failure = "no name server";
        for (InetSocketAddress server : nameServers) {
            try {
                return query(server, name);
            } catch (EnrTreeException e) {
                failure = e.getMessage();
            }
        }
        throw new EnrTreeException(Kind.QUERY_FAILURE, failure);
    }

    private String query(InetSocketAddress server, String name) throws EnrTreeException {
        AddressedEnvelope<DnsResponse, InetSocketAddress> envelope;
        try {
            envelope = resolver.query(server, new DefaultDnsQuestion(name, DnsRecordType.TXT))
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EnrTreeException(Kind.QUERY_FAILURE, "interrupted asking " + server + " for " + name);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new EnrTreeException(Kind.QUERY_FAILURE, "TXT " + name + " at " + server + ": " + cause.getMessage());
        }
        try {
            DnsResponse response = envelope.content();
            if (!DnsResponseCode.NOERROR.equals(response.code())) {
                throw new EnrTreeException(Kind.QUERY_FAILURE, "TXT " + name + " at " + server + ": " + response.code());
            }
            for (int i = 0; i < response.count(DnsSection.ANSWER); i++) {
                DnsRecord record = response.recordAt(DnsSection.ANSWER, i);
                if (record.type() == DnsRecordType.TXT && record instanceof DnsRawRecord raw) {
                    return text(raw.content(), name);
                }
            }
            throw new EnrTreeException(Kind.QUERY_FAILURE, "no TXT record for " + name + " at " + server);
        } finally {
            envelope.release();
        }
    }

    /** The character-strings of a TXT record's data, each a length byte and its bytes, joined. */
    private static String text(ByteBuf data, String name) throws EnrTreeException {
        ByteBuf in = data.duplicate();
        if (in.readableBytes() > MAX_TEXT) {
            throw new EnrTreeException(Kind.QUERY_FAILURE, "the TXT record of " + name + " is over " + MAX_TEXT + " bytes");
        }
        StringBuilder out = new StringBuilder(in.readableBytes());
        while (in.isReadable()) {
            int length = in.readUnsignedByte();
            if (length > in.readableBytes()) {
                throw new EnrTreeException(Kind.QUERY_FAILURE, "the TXT record of " + name + " is cut short");
            }
            out.append(in.readCharSequence(length, StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    @Override
    public void close() {
        resolver.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
