#pragma once

#include "benchcommon.h"
#include "redis/connectionoptions.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <initializer_list>
#include <memory>
#include <vector>

struct redisContext;
struct redisReply;

namespace LockScope::Bench {

struct RawReplyDeleter
{
    void operator()(redisReply *reply) const;
};
using RawReply = std::unique_ptr<redisReply, RawReplyDeleter>;

// hiredis's synchronous API on one blocking TCP socket, used three ways: to seed the keyspace in pipelined chunks,
// as the raw reference loop for a snapshot, and as "another client" that releases and acquires locks.
class RawPipe
{
public:
    RawPipe() = default;
    ~RawPipe();
    RawPipe(const RawPipe &) = delete;
    RawPipe &operator=(const RawPipe &) = delete;

    bool connect(const ConnectionOptions &options, QString *error);

    // Buffered until the next reply is read (or flush()): appending costs no system call.
    void append(std::initializer_list<QByteArrayView> argv);
    void append(const QList<QByteArray> &argv);
    // Writes everything appended without waiting for a reply, so the caller can time what follows the send.
    bool flush(QString *error);
    // The next reply in order; an error reply is returned, not reported (callers decide).
    RawReply next(QString *error);
    RawReply command(std::initializer_list<QByteArrayView> argv, QString *error);

private:
    void appendCurrent();

    redisContext *m_context = nullptr;
    // Reused per command, so the reference loop does not allocate for its argument vectors.
    std::vector<const char *> m_ptrs;
    std::vector<size_t> m_lens;
};

// Text of a status, string or error reply; the number of an integer one.
QByteArray replyText(const redisReply *reply);
bool isErrorReply(const redisReply *reply);

struct RawSnapshot
{
    qint64 elapsedNs = 0;
    qint64 scanCalls = 0;
    qint64 keysSeen = 0; // keys SCAN returned
    qint64 typeCalls = 0; // TYPE, one per key
    qint64 hashesSeen = 0; // hashes among them, each read with HSCAN + PTTL
    qint64 lockShaped = 0; // hashes whose fields got the aux reads
    qint64 stringKeys = 0; // strings in a string lock pattern, each read with GETRANGE + PTTL
    qint64 zsetKeys = 0; // sorted sets in their patterns, each read with ZRANGE + ZCARD + PTTL
    qint64 commands = 0;
};

// The reference loop: exactly the commands LockScanner sends for one pass with its default walk plan (one untyped
// SCAN; per batch the TYPE of each key closed by a PING; then for the hashes one pipeline of HSCAN + PTTL per key
// closed by a PING, HGETALL for lock-shaped partial pages, the aux reads of the lock-shaped ones closed by a PING; for
// the strings in a string lock pattern GETRANGE + PTTL; for the sorted sets in theirs ZRANGE + ZCARD + PTTL), and
// nothing else: no classification, no bookkeeping.
bool rawSnapshot(RawPipe &pipe, int scanCount, RawSnapshot *out, QString *error);

// A bench counts what it finds against what it seeded, and deletes what it seeded afterwards: a server it did not
// start must have an empty database (fatal otherwise).
void requireEmptyDatabase(RawPipe &raw, const ConnectionOptions &options);
// The server a seeding bench runs on: a private one, or `url`'s (which must hold an empty database); raw connected to
// it. Fatal on any failure.
void openSeedServer(const QString &url, BenchServer &server, RawPipe &raw);

// Deletes every key whose name contains "bench:" (lock, aux and noise keys alike), for a server the bench did not
// start. Returns the number of keys deleted.
qint64 removeSeeded(RawPipe &pipe, QString *error);

// The server's own CPU so far (user + system), in ms, from INFO cpu.
double serverCpuMs(RawPipe &raw);

struct Walk
{
    double wallMs = 0;
    double serverCpuMs = 0;
    qint64 keys = 0;
};
// The bare walk: every key of the keyspace once, `count` at a time, nothing read. What Redis needs to list its keys:
// the baseline of bench_list and bench_console.
Walk bareWalk(RawPipe &raw, int count);

} // namespace LockScope::Bench
