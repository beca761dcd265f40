#pragma once

#include "kinds/lockclassifier.h"
#include "redis/redisresult.h"

#include <functional>
#include <optional>

namespace LockScope {

// Where an aux read's answer goes: into the candidate's snapshot, before classification runs.
using AuxStore = std::function<void(KeySnapshot &, const RedisResult &)>;

// The aux reads of one scanner batch, gathered so that they leave as one batch of commands (one callback for all of
// them, not one per command).
struct AuxReads
{
    QList<QList<QByteArray>> commands;
    QList<QPair<int, AuxStore>> stores; // per command: the candidate's index in the batch, and where its answer goes
};

// The reply an aux read gets when none of the keys it reads exists (EXISTS: 0, GET: nil, LRANGE: empty, ...), and
// those keys; nullopt for a command not known here, which is then always sent. Lets a walk that saw every key answer
// the reads of keys it never returned without sending them.
std::optional<RedisValue> replyWithoutKeys(const QList<QByteArray> &argv, QList<QByteArray> *keys);

// What a layout uses to read, for one lock hash candidate of a scanner batch, the keys beside it that its
// fingerprint needs (a fencing token, a fair queue, readers' timeout keys). The commands join the batch's pipeline;
// each answer is written into the candidate's snapshot before classification runs.
class AuxReader
{
public:
    using Store = AuxStore;

    AuxReader(AuxReads *reads, const QList<KeySnapshot> &snapshots, int index)
        : m_reads(reads)
        , m_snapshots(snapshots)
        , m_index(index)
    { }

    const KeySnapshot &snapshot() const { return m_snapshots.at(m_index); }
    void command(const QList<QByteArray> &argv, Store store);

private:
    AuxReads *m_reads;
    const QList<KeySnapshot> &m_snapshots;
    int m_index;
};

} // namespace LockScope
