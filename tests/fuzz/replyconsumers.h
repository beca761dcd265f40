#pragma once

#include "fuzzinput.h"

namespace LockScope::Fuzz {

class LoopbackPeer;

// The reply consumers fuzz_replies reaches beyond the lock scripts' decoders, the probe, the scanner and Sentinel
// (docs/fuzzing.md): each takes the rest of the input.

// The WAIT after a lock write (ReplicaSync): INFO replication, WAIT and the INFO after an unacknowledged write.
void replicaWait(FuzzInput &in);
// The publish mode's probe (PublishModeResolver): COMMAND INFO SPUBLISH and PUBSUB SHARDNUMSUB, or INFO cluster and
// the slot map first, over a real router on the loopback peer.
void publishMode(FuzzInput &in, LoopbackPeer &wire);
// The monitor's PTTL and waiter polls (TtlWatch): PTTL, PUBSUB NUMSUB and SHARDNUMSUB over a real router.
void ttlPoll(FuzzInput &in, LoopbackPeer &wire);
// The monitor's reads by name (KeyReader over the scanner): each marked key answered once, or the batch failed.
void keyReads(FuzzInput &in);
// MONITOR lines (parseMonitorLine, and the guided demo's GuideObserver::parseMonitorLine over it), arbitrary and quoted
// as Redis quotes them; the trace's TraceReader on the same lines, and parseClientList on them as a CLIENT LIST.
void monitorLines(FuzzInput &in);

} // namespace LockScope::Fuzz
