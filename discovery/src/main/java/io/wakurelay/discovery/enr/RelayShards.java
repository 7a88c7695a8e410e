package io.wakurelay.discovery.enr;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The relay shards a node serves in one cluster (rfc-index core/51/relay-sharding, nwaku's
 * {@code waku_enr/sharding.nim}), in the two ENR forms: {@code rs}, the cluster (2 bytes), a count (1 byte) and
 * each shard (2 bytes, big-endian); and {@code rsv}, the cluster and a 128-byte bit vector in which bit j of byte i
 * is shard 8i + j. Like nwaku, a node writes {@code rs} for fewer than 64 shards and {@code rsv} from 64 on.
 */
public record RelayShards(int cluster, SortedSet<Integer> shards) {

    public static final int MAX_SHARD = 1023;
    /** From this many shards on, the bit vector is the shorter form (nwaku's ShardingIndicesListMaxLength). */
    static final int LIST_MAX = 64;
    private static final int BIT_VECTOR_BYTES = 128;

    public RelayShards {
        if (cluster < 0 || cluster > 0xffff) {
            throw new IllegalArgumentException("a cluster id is 0..65535, not " + cluster);
        }
        for (int shard : shards) {
            if (shard < 0 || shard > MAX_SHARD) {
                throw new IllegalArgumentException("a shard is 0.." + MAX_SHARD + ", not " + shard);
            }
        }
        shards = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(shards));
    }

    public static RelayShards of(int cluster, List<Integer> shards) {
        return new RelayShards(cluster, new TreeSet<>(shards));
    }

    /** The ENR key this set is written under. */
    String key() {
        return shards.size() >= LIST_MAX ? WakuEnrFields.SHARDS_BIT_VECTOR : WakuEnrFields.SHARDS_LIST;
    }

    byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(cluster >>> 8);
        out.write(cluster);
        if (shards.size() >= LIST_MAX) {
            byte[] vector = new byte[BIT_VECTOR_BYTES];
            for (int shard : shards) {
                vector[shard / 8] |= (byte) (1 << (shard % 8));
            }
            out.writeBytes(vector);
        } else {
            out.write(shards.size());
            for (int shard : shards) {
                out.write(shard >>> 8);
                out.write(shard);
            }
        }
        return out.toByteArray();
    }

    static RelayShards decodeList(byte[] value) {
        if (value.length < 3) {
            throw new EnrFormatException("the rs field has " + value.length + " bytes, at least 3 are needed");
        }
        int count = value[2] & 0xff;
        if (value.length != 3 + 2 * count) {
            throw new EnrFormatException("the rs field counts " + count + " shards in " + value.length + " bytes");
        }
        TreeSet<Integer> shards = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            int shard = ((value[3 + 2 * i] & 0xff) << 8) | (value[4 + 2 * i] & 0xff);
            if (shard > MAX_SHARD) {
                throw new EnrFormatException("the rs field names shard " + shard + ", above " + MAX_SHARD);
            }
            shards.add(shard);
        }
        return new RelayShards(cluster(value), shards);
    }

    static RelayShards decodeBitVector(byte[] value) {
        if (value.length != 2 + BIT_VECTOR_BYTES) {
            throw new EnrFormatException("the rsv field has " + value.length + " bytes, not 130");
        }
        TreeSet<Integer> shards = new TreeSet<>();
        for (int i = 0; i < BIT_VECTOR_BYTES; i++) {
            for (int j = 0; j < 8; j++) {
                if ((value[2 + i] & (1 << j)) != 0) {
                    shards.add(8 * i + j);
                }
            }
        }
        return new RelayShards(cluster(value), shards);
    }

    private static int cluster(byte[] value) {
        return ((value[0] & 0xff) << 8) | (value[1] & 0xff);
    }
}
