#!/usr/bin/env python3
"""The RLN test vectors (rln/src/test/resources/rln/vectors.json, ../shared/rln/README.md) for deploy/compose-test.sh.

  rln_vectors.py root VECTORS
      The membership root after the last registration, as root() of the contract answers it (0x and 64 hex digits,
      a uint256), and the number of registrations: what the local chain starts with (RLN_ROOT, RLN_MEMBERSHIPS).
  rln_vectors.py clock VECTORS ID...
      A wall clock, in Unix seconds, at which every case named is within the 20 s a timestamp may be from now: 10 s
      after the earliest timestamp (fails when the cases' timestamps are more than 30 s apart).
  rln_vectors.py lightpush VECTORS ID...
      One body of nwaku's REST POST /lightpush/v3/message per case, a line each: the case's WakuMessage (payload,
      content topic, version, timestamp, its RateLimitProof as "proof") on the case's pubsub topic.
  rln_vectors.py forged VECTORS ID
      That body for the case's message with its payload changed after proving: a proof that does not fit it.
  rln_vectors.py unproved VECTORS [UNIX_SECONDS]
      One such body without a proof, on the vectors' topic and content topic, timestamped then (default: now).

Standard library only.
"""
import base64
import json
import sys
import time


def varint(data, i):
    value, shift = 0, 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def fields(data):
    """The fields of a protobuf message: number -> the last value (int for varints, bytes for length-delimited)."""
    out, i = {}, 0
    while i < len(data):
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            out[number], i = varint(data, i)
        elif wire == 2:
            length, i = varint(data, i)
            out[number], i = data[i:i + length], i + length
        else:
            raise ValueError(f"wire type {wire} of field {number} is not in a WakuMessage")
    return out


def message(case):
    m = fields(bytes.fromhex(case["message"]))
    zigzag = m.get(10, 0)
    return {
        "payload": base64.b64encode(m.get(1, b"")).decode(),
        "contentTopic": m[2].decode(),
        "version": m.get(3, 0),
        "timestamp": (zigzag >> 1) ^ -(zigzag & 1),
        **({"proof": base64.b64encode(m[21]).decode()} if 21 in m else {}),
    }


def cases(vectors, ids):
    by_id = {c["id"]: c for c in vectors["cases"]}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise SystemExit(f"no such case: {', '.join(missing)}")
    return [by_id[i] for i in ids]


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    command, vectors = argv[1], json.load(open(argv[2], encoding="utf-8"))
    if command == "root":
        last = vectors["members"][-1]
        root = int.from_bytes(bytes.fromhex(last["root_after_le_hex"]), "little")
        print(f"0x{root:064x} {len(vectors['members'])}")
    elif command == "clock":
        stamps = [message(c)["timestamp"] / 1e9 for c in cases(vectors, argv[3:])]
        if max(stamps) - min(stamps) > 30:
            raise SystemExit("the cases' timestamps are more than 30 s apart: no clock suits them all")
        print(f"{min(stamps) + 10:.3f}")
    elif command == "lightpush":
        for case in cases(vectors, argv[3:]):
            print(json.dumps({"pubsubTopic": case["pubsub_topic"], "message": message(case)}))
    elif command == "forged":
        case = cases(vectors, argv[3:4])[0]
        forged = message(case)
        forged["payload"] = base64.b64encode(base64.b64decode(forged["payload"]) + b" (changed)").decode()
        print(json.dumps({"pubsubTopic": case["pubsub_topic"], "message": forged}))
    elif command == "unproved":
        stamp = int(float(argv[3]) * 1e9) if len(argv) > 3 else time.time_ns()
        print(json.dumps({"pubsubTopic": vectors["pubsub_topic"], "message": {
            "payload": base64.b64encode(b"no proof").decode(), "contentTopic": vectors["content_topic"],
            "timestamp": stamp}}))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
