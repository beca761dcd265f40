// Hostile server replies fed to the code that acts on them, past the RESP reader (fuzz_resp covers that). The first
// byte picks the mode (docs/fuzzing.md):
//   0: each reply through every layout's answer decoders (acquire, release, force release);
//   1: HashRecognition::decide on fuzzed facts (the judgement the kind check's Lua makes);
//   2: a scanner pass (SCAN walks, TYPE, the key reads, aux keys, PUBSUB NUMSUB) on the replies;
//   3: the scanner reading named keys (show NAME, a key the monitor refreshes);
//   4: Sentinel: the answer to GET-MASTER-ADDR-BY-NAME from a loopback "sentinel", then its +switch-master messages;
//   5: the WAIT after a lock write (ReplicaSync: INFO replication, WAIT, INFO again);
//   6: the publish mode's probe (PublishModeResolver) over a real router on the loopback peer;
//   7: the monitor's PTTL and waiter polls (TtlWatch) over a real router on the loopback peer;
//   8: the monitor's reads by name (KeyReader over the scanner);
//   9: MONITOR lines (parseMonitorLine, the guided demo's and the trace's readers) and CLIENT LIST.
// Modes 1 to 3, 5 and 8 talk to a ScriptedCommander: each command takes the next reply, and fails once the bytes are
// gone. Modes 5 to 9 are in replyconsumers.cpp.
#include "fuzzinput.h"
#include "fuzzqt.h"
#include "kinds/hashrecognition.h"
#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "loopbackpeer.h"
#include "redis/redisvalue.h"
#include "redis/respcodec.h"
#include "redis/sentinelresolver.h"
#include "replyconsumers.h"
#include "scriptedcommander.h"

#include <QCoreApplication>

#include <optional>

using namespace LockScope;
using namespace LockScope::Fuzz;

namespace {

QList<RedisValue> replies(const QByteArray &bytes)
{
    RespReader reader;
    reader.feed(bytes.constData(), bytes.size());
    QList<RedisValue> out;
    RedisValue value;
    while (reader.next(&value) == RespReader::Status::Reply)
        out << value;
    return out;
}

// What the lock client does with a script's answer: every layout reads it, whatever shape it has.
void decoders(FuzzInput &in)
{
    for (const RedisValue &reply : replies(in.rest())) {
        for (const LockLayout *lockLayout : LockLayouts::all()) {
            const LockActions *layout = lockLayout->lockActions();
            if (!layout)
                continue; // a counter: no lock script's answer is read as its
            AcquireResult acquire;
            if (layout->decodeAcquire(reply, &acquire))
                FUZZ_CHECK(!acquire.acquired || acquire.holderNow.isEmpty()); // acquired: nobody else holds it
            ReleaseResult release;
            layout->decodeRelease(reply, &release);
            // Released: nobody holds it in its place.
            if (release.outcome == ReleaseResult::Outcome::Released)
                FUZZ_CHECK(release.holderNow.isEmpty());
            ForceReleaseResult force;
            layout->decodeForceRelease(reply, &force);
            FUZZ_CHECK(!(force.deleted && force.guardFailed)); // deleted, or the guard failed: never both
            if (!force.guardFailed)
                FUZZ_CHECK(force.holdersNow.isEmpty());
        }
    }
}

void probe(FuzzInput &in)
{
    const quint8 facts = in.byte();
    const QByteArray type = in.piece();
    QList<bool> marks;
    for (qsizetype i = 0; i < HashRecognition::reads().size(); ++i)
        marks << bool((facts >> i) & 1);
    bool notAHash = false;
    const LockLayout *layout = HashRecognition::decide(type, marks, &notAHash);
    // Only a lock hash (or nothing at all) is some layout's; anything else is no lock hash, and says so.
    FUZZ_CHECK(notAHash == (type != "hash" && type != "none"));
    if (notAHash)
        FUZZ_CHECK(!layout);
    if (type == "hash")
        FUZZ_CHECK(layout != nullptr); // a hash with no mark is the plain lock hash
}

// One pass: start(), or readKeys(named) when names are given.
void runScan(const LockScanner::Options &options, const QByteArray &said, const std::optional<QList<QByteArray>> &named)
{
    ScriptedCommander server(said);
    LockScanner scanner(&server, options);
    int finished = 0;
    QList<LockInfo> found;
    QObject::connect(&scanner, &LockScanner::finished, [&](const RedisError &, int keysSeen) {
        ++finished;
        FUZZ_CHECK(keysSeen >= 0);
    });
    QObject::connect(&scanner, &LockScanner::locksFound, [&](const QList<LockInfo> &locks) {
        FUZZ_CHECK(finished == 0); // locks come before the pass ends, never after
        found << locks;
    });
    if (named)
        scanner.readKeys(*named);
    else
        scanner.start();
    server.drain();
    FUZZ_CHECK(finished == 1); // a pass ends, once, whatever the server says and when it goes away
    FUZZ_CHECK(!scanner.isRunning());
    FUZZ_CHECK(!server.corked());
    for (const LockInfo &lock : std::as_const(found)) {
        // A lock is something the server named (a key a SCAN returned, or one asked for), never made up.
        FUZZ_CHECK(lock.kind != LockInfo::Kind::NotALock);
        FUZZ_CHECK(said.contains(lock.name) || (named && named->join('\n').contains(lock.name)));
    }
}

LockScanner::Options scannerOptions(FuzzInput &in)
{
    const quint8 flags = in.byte();
    LockScanner::Options o;
    o.typedWalks = flags & 1;
    o.shardWaiters = flags & 2;
    o.count = 1 + in.byte();
    if (flags & 4)
        o.pattern = in.piece();
    o.stringPatterns = (flags & 8) ? StringLockPatterns::fromEntries(StringLockPatterns::defaults())
                                   : StringLockPatterns::fromEntries(in.piece().split(' '));
    return o;
}

void scan(FuzzInput &in)
{
    const LockScanner::Options options = scannerOptions(in);
    runScan(options, in.rest(), std::nullopt);
}

void readKeys(FuzzInput &in)
{
    const LockScanner::Options options = scannerOptions(in);
    QList<QByteArray> keys;
    for (int n = in.byte() % 6; n > 0; --n)
        keys << in.piece();
    runScan(options, in.rest(), keys);
}

LoopbackPeer &peer()
{
    static LoopbackPeer instance; // after the QCoreApplication of LLVMFuzzerInitialize
    return instance;
}

// Each dropped connection makes the resolver ask the next sentinel: all of them on the one loopback peer.
void sentinel(FuzzInput &in)
{
    const quint8 flags = in.byte();
    const QByteArray master = (flags & 1) ? in.piece() : QByteArray("mymaster");
    const QByteArray answer = in.piece();
    const QByteArray messages = in.rest();
    LoopbackPeer &wire = peer();
    wire.reset();

    ConnectionOptions o;
    o.sentinelMaster = master.isEmpty() ? QByteArray("m") : master;
    for (int i = 0; i <= (flags >> 1) % 2; ++i)
        o.sentinels << SentinelAddress { QStringLiteral("127.0.0.1"), wire.port() };
    o.autoReconnect = false;
    auto resolver = std::make_unique<SentinelResolver>(o);
    int answers = 0;
    resolver->resolve([&](const QString &host, quint16 port, const RedisError &error) {
        ++answers;
        // A master LockScope would connect to: a host, and a port that is one (never 0, never a number cut short).
        if (!error.isError())
            FUZZ_CHECK(!host.isEmpty() && port > 0);
        else
            FUZZ_CHECK(!error.message().isEmpty());
    });
    wire.pumpUntil([&] { return wire.connected(); }, 1000);
    wire.write(answer);
    // The sentinels go away until the resolver has its answer: each attempt fails at once, not by a deadline.
    for (int round = 0; round < 20 && answers == 0; ++round) {
        wire.pump(4);
        if (answers == 0)
            wire.closeAll();
    }
    FUZZ_CHECK(answers == 1);

    if (flags & 8) {
        wire.reset();
        resolver->watch();
        QObject::connect(resolver.get(), &SentinelResolver::masterSwitched,
            [&](const QString &host, quint16 port) { FUZZ_CHECK(!host.isEmpty() && port > 0); });
        wire.pumpUntil([&] { return wire.connected(); }, 1000);
        wire.write(messages);
        wire.pump(4);
    }
    resolver.reset();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    wire.reset();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    LockScope::Fuzz::startQt("fuzz_replies");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    switch (in.byte() % 10) {
    case 1:
        probe(in);
        break;
    case 2:
        scan(in);
        break;
    case 3:
        readKeys(in);
        break;
    case 4:
        sentinel(in);
        break;
    case 5:
        replicaWait(in);
        break;
    case 6:
        publishMode(in, peer());
        break;
    case 7:
        ttlPoll(in, peer());
        break;
    case 8:
        keyReads(in);
        break;
    case 9:
        monitorLines(in);
        break;
    default:
        decoders(in);
        break;
    }
    return 0;
}
