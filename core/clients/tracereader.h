#pragma once

#include "clients/tracefindings.h"

#include <QByteArray>
#include <QHash>
#include <QList>

namespace LockScope {

struct MonitorLine;

// Reads MONITOR lines into who sent which identity (docs/protocol/trace.md). Pure: no Redis of its own, so the
// rules are tested and fuzzed line by line.
//
// - A script (EVAL, EVALSHA, their _RO forms, FCALL, FCALL_RO): its KEYS are argv[3..3+numkeys). Every ARGV that is
//   an owner field (isOwnerField: Redisson's "<uuid>:<thread>") is a sighting of kind Owner, and its UUID part one of
//   kind Client, with the script's keys (with as many owners as keys, the i-th owner with the i-th key: Redisson's
//   batched renewal). Other ARGV values, at most 256 bytes and no integer, are Token sightings only when the script
//   has exactly one key: a string lock's release or extension (redsync, redis-py, node-redlock).
// - SET key value ... NX ... and SETNX key value: the value is a Token sighting, and the command an acquire attempt.
// - Commands a script ran ("[0 lua]") are skipped: the script itself was read.
//
// Retriers: each acquire attempt counts for (key, identity): a SET NX's token, or the owner of a one-key script
// that carries one (Redisson re-runs its acquire script after every wake-up). Only (key, identity) pairs tried at
// least twice are reported: a waiter polling. A pair is not keyed by connection because a client's pool may send each
// attempt on another one (Redisson's takes the next free connection); the retrier names the connection of the latest
// attempt. A Redisson holder's renewals of a one-key lock repeat too and are counted alike: whoever shows retriers
// leaves out the key's current holder.
//
// Memory is bounded: past maxEntries distinct sightings (or retrier candidates) no new one is kept, and partial says
// so; counts of the ones kept go on.
class TraceReader
{
public:
    explicit TraceReader(int maxEntries = 100000);

    // One line as node sent it (node empty on a single server). Lines that are no MONITOR line are counted, not read.
    void read(const QByteArray &node, const QByteArray &line);
    void read(const QByteArray &node, const MonitorLine &line);

    qint64 lines() const { return m_lines; }
    qint64 bytes() const { return m_bytes; }
    // Sightings, retriers with at least two attempts, the lines and bytes read, and why some were not kept.
    void fill(TraceFindings *findings) const;

    static constexpr int maxTokenBytes = 256;
    static constexpr int maxKeysPerSighting = 8;

private:
    void sight(TraceFindings::Sighting::Identity kind, const QByteArray &identity, const QByteArray &node,
        const QByteArray &addr, const QList<QByteArray> &keys, qint64 ms);
    // An owner's unlock seen (sight() has kept its sighting).
    void noteRelease(const QByteArray &owner, const QByteArray &node, const QByteArray &addr, qint64 ms);
    void attempt(
        const QByteArray &node, const QByteArray &addr, const QByteArray &key, const QByteArray &identity, qint64 ms);
    void readScript(const QByteArray &node, const MonitorLine &line, qint64 ms);

    int m_maxEntries;
    qint64 m_lines = 0;
    qint64 m_bytes = 0;
    QList<TraceFindings::Sighting> m_sightings;
    QHash<QByteArray, qsizetype> m_sightingIndex; // kind, node, addr, identity -> m_sightings
    QList<TraceFindings::Retrier> m_retriers; // every candidate, with one attempt or more
    QHash<QByteArray, qsizetype> m_retrierIndex; // node, key, identity -> m_retriers
    bool m_sightingsFull = false;
    bool m_retriersFull = false;
};

} // namespace LockScope
