package io.wakurelay.archive.postgres;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.ArchiveConfigBuilder;
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
    protected MessageArchive open(UnaryOperator<ArchiveConfigBuilder> tune) {
        return PostgresArchive.open(tune.apply(PostgresFixture.config(postgres).toBuilder()).build(), new SimpleMeterRegistry());
    }

    @Override
    protected long count(MessageArchive archive) {
        return PostgresFixture.count(archive);
    }
}
