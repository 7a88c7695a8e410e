package io.wakurelay.p2p.mss;

import io.netty.buffer.ByteBuf;
import io.wakurelay.p2p.wire.Uvarint;
import io.wakurelay.p2p.wire.WireFormatException;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * multistream-select 1.0 (libp2p/specs connections/README.md): each message is {@code uvarint(len) ‖ text ‖ '\n'};
 * both sides send {@code /multistream/1.0.0}, the dialer proposes protocols one at a time, the listener echoes the
 * one it takes or answers {@code na}. The dialer pipelines its header and first proposal in one write, and the
 * listener accepts that (and whatever bytes of the chosen protocol follow in the same read: they stay in the input
 * for the protocol).
 *
 * <p>A negotiation is fed the peer's bytes with {@link #read}; what it has to send is written to the buffer it is
 * given. Not thread-safe: one negotiation per connection or stream, on its event loop.
 */
public abstract sealed class MultistreamSelect permits MultistreamSelect.Dialer, MultistreamSelect.Listener {
    public static final String PROTOCOL_ID = "/multistream/1.0.0";
    public static final String NOT_AVAILABLE = "na";
    /** Longest message accepted, newline included (protocol ids are short; js-libp2p allows 1024). */
    public static final int MAX_MESSAGE_BYTES = 1024;
    /** Proposals a listener answers before it gives up on a dialer that never picks one it supports. */
    public static final int MAX_PROPOSALS = 32;

    private boolean headerReceived;
    private String selected;

    /** A dialer that proposes {@code protocols} in order of preference. */
    public static Dialer dialer(List<String> protocols) {
        return new Dialer(protocols);
    }

    /** A listener that takes the first proposal {@code supported} accepts. */
    public static Listener listener(Predicate<String> supported) {
        return new Listener(supported);
    }

    /** Writes what this side says before it has read anything. */
    public abstract void start(ByteBuf out);

    /**
     * Reads as many messages as {@code in} holds, up to the end of the negotiation, and writes the answers to
     * {@code out}. Bytes after the last negotiation message stay unread in {@code in}.
     *
     * @return the selected protocol, or null while the negotiation goes on
     * @throws NegotiationException when the peer breaks the protocol or no protocol can be agreed
     */
    public final String read(ByteBuf in, ByteBuf out) {
        while (selected == null) {
            String message = readMessage(in);
            if (message == null) {
                return null;
            }
            if (!headerReceived) {
                if (!PROTOCOL_ID.equals(message)) {
                    throw new NegotiationException("expected " + PROTOCOL_ID + ", got '" + printable(message) + "'");
                }
                headerReceived = true;
                continue;
            }
            selected = onMessage(message, out);
        }
        return selected;
    }

    /** The selected protocol, or null. */
    public final String selected() {
        return selected;
    }

    abstract String onMessage(String message, ByteBuf out);

    /** Writes one multistream-select message. */
    public static void writeMessage(ByteBuf out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Uvarint.write(out, bytes.length + 1L);
        out.writeBytes(bytes);
        out.writeByte('\n');
    }

    /** @return the message text without its newline, or null (nothing consumed) when it is not complete yet */
    static String readMessage(ByteBuf in) {
        int start = in.readerIndex();
        int length;
        try {
            length = Uvarint.readInt(in, MAX_MESSAGE_BYTES, "multistream message");
        } catch (WireFormatException e) {
            throw new NegotiationException(e.getMessage());
        }
        if (length < 0) {
            return null;
        }
        if (in.readableBytes() < length) {
            in.readerIndex(start);
            return null;
        }
        if (length == 0 || in.getByte(in.readerIndex() + length - 1) != '\n') {
            throw new NegotiationException("multistream message does not end with a newline");
        }
        String text = in.toString(in.readerIndex(), length - 1, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return text;
    }

    private static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    /** Proposes protocols in order until the listener echoes one. */
    public static final class Dialer extends MultistreamSelect {
        private final List<String> protocols;
        private int next;

        private Dialer(List<String> protocols) {
            if (protocols.isEmpty()) {
                throw new IllegalArgumentException("no protocol to propose");
            }
            this.protocols = List.copyOf(protocols);
        }

        @Override
        public void start(ByteBuf out) {
            writeMessage(out, PROTOCOL_ID);
            writeMessage(out, protocols.get(next++));
        }

        @Override
        String onMessage(String message, ByteBuf out) {
            String proposed = protocols.get(next - 1);
            if (message.equals(proposed)) {
                return proposed;
            }
            if (!NOT_AVAILABLE.equals(message)) {
                throw new NegotiationException("proposed " + proposed + ", the peer answered '" + printable(message) + "'");
            }
            if (next == protocols.size()) {
                throw new NegotiationException.NotSupported(protocols);
            }
            writeMessage(out, protocols.get(next++));
            return null;
        }
    }

    /** Echoes the first supported proposal, answers {@code na} to the others. */
    public static final class Listener extends MultistreamSelect {
        private final Predicate<String> supported;
        private int proposals;

        private Listener(Predicate<String> supported) {
            this.supported = Objects.requireNonNull(supported);
        }

        @Override
        public void start(ByteBuf out) {
            writeMessage(out, PROTOCOL_ID);
        }

        @Override
        String onMessage(String message, ByteBuf out) {
            if (++proposals > MAX_PROPOSALS) {
                throw new NegotiationException("more than " + MAX_PROPOSALS + " proposals without agreement");
            }
            if (!message.equals(NOT_AVAILABLE) && !message.equals(PROTOCOL_ID) && supported.test(message)) {
                writeMessage(out, message);
                return message;
            }
            // "ls" is answered with na as well: listing protocols is optional, and nothing we peer with uses it
            writeMessage(out, NOT_AVAILABLE);
            return null;
        }
    }
}
