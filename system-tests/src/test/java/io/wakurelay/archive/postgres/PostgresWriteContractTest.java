package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.CoreConfigBuilder;
import io.wakurelay.archive.MessageArchive;
import io.wakurelay.archive.contract.WriteContract;
import io.wakurelay.testkit.PostgresServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.function.UnaryOperator;

@Tag("process")
class PostgresWriteContractTest extends WriteContract {
    @RegisterExtension
    static final PostgresServer postgres = new PostgresServer();

    @Override
    protected MessageArchive open(UnaryOperator<CoreConfigBuilder> tune) {
        return PostgresArchive.open(PostgresFixture.config(postgres).withCore(tune), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return PostgresFixture.count(archive);
    }
}
