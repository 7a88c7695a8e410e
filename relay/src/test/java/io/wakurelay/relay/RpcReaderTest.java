package io.wakurelay.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.wakurelay.protocol.ProtocolViolation;
import io.wakurelay.relay.proto.ControlGraft;
import io.wakurelay.relay.proto.ControlIHave;
import io.wakurelay.relay.proto.ControlMessage;
import io.wakurelay.relay.proto.ControlPrune;
import io.wakurelay.relay.proto.RPC;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RpcReaderTest {
    private static RpcReader.Rpc read(byte[] rpc, int maxControl) {
        ByteBuf buf = Unpooled.wrappedBuffer(rpc);
        try {
            return RpcReader.read(buf, maxControl);
        } finally {
            buf.release();
        }
    }

    private static ControlMessage prunes(int n) {
        ControlMessage.Builder control = ControlMessage.newBuilder();
        for (int i = 0; i < n; i++) {
            control.addPrune(ControlPrune.newBuilder().setTopicID("/unknown/" + i).setBackoff(Long.MAX_VALUE));
        }
        return control.build();
    }

    @Test
    void controlWithinTheLimitIsParsedAndCountedByKind() {
        ControlMessage control = prunes(3).toBuilder().addGraft(ControlGraft.newBuilder().setTopicID("t"))
                .addIhave(ControlIHave.newBuilder().setTopicID("t")).build();
        RpcReader.Rpc rpc = read(RPC.newBuilder().setControl(control).build().toByteArray(), 5);

        assertThat(rpc.controlOverLimit()).isFalse();
        assertThat(rpc.control()).isEqualTo(control);
        assertThat(rpc.controlCounts().of(ControlKind.PRUNE)).isEqualTo(3);
        assertThat(rpc.controlCounts().of(ControlKind.GRAFT)).isEqualTo(1);
        assertThat(rpc.controlCounts().of(ControlKind.IHAVE)).isEqualTo(1);
        assertThat(rpc.controlCounts().total()).isEqualTo(5);
    }

    @Test
    void controlPastTheLimitIsCountedButNotParsedWhileTheRestOfTheRpcIs() {
        RPC rpc = RPC.newBuilder().setControl(prunes(71_000))
                .addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid(Messages.TOPIC)).build();

        RpcReader.Rpc read = read(rpc.toByteArray(), 4096);

        assertThat(read.controlOverLimit()).isTrue();
        assertThat(read.control()).isNull();
        assertThat(read.controlCounts().of(ControlKind.PRUNE)).isEqualTo(71_000);
        assertThat(read.subscriptions()).hasSize(1);
    }

    @Test
    void controlSplitOverManyPartsIsCountedAcrossThemAndMergedAsProtobufMergesThem() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
            RPC.newBuilder().setControl(prunes(2)).build().writeTo(wire);
        }
        RPC.newBuilder().setControl(ControlMessage.getDefaultInstance()).build().writeTo(wire);

        RpcReader.Rpc within = read(wire.toByteArray(), 7);
        assertThat(within.control().getPruneCount()).isEqualTo(6);
        assertThat(within.controlCounts().total()).as("an empty part counts as one").isEqualTo(7);

        assertThat(read(wire.toByteArray(), 6).controlOverLimit()).isTrue();
    }

    @Test
    void anRpcWithoutControlHasNone() {
        RPC subscription = RPC.newBuilder()
                .addSubscriptions(RPC.SubOpts.newBuilder().setSubscribe(true).setTopicid("t")).build();
        RpcReader.Rpc rpc = read(subscription.toByteArray(), 1);
        assertThat(rpc.control()).isNull();
        assertThat(rpc.controlOverLimit()).isFalse();
        assertThat(rpc.controlCounts().total()).isZero();
    }

    @Test
    void aMalformedControlPartIsAMalformedRpcEvenPastTheLimit() {
        // control (field 3), 2 bytes: a PRUNE (field 4) that claims 5 bytes
        byte[] rpc = {0x1a, 0x02, 0x22, 0x05};
        assertThatThrownBy(() -> read(rpc, 1)).isInstanceOf(ProtocolViolation.class);
        assertThatThrownBy(() -> read(rpc, 0)).isInstanceOf(ProtocolViolation.class);
    }
}
