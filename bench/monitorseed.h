#pragma once

#include "monitorraw.h"

#include <QByteArray>
#include <QList>

namespace LockScope::Bench {

// What the bench seeds: lock i's kind is fixed by i % 10 (7 reentrant, 1 fenced, 1 fair, 1 read-write), noise
// key j's by j % 100 (70 strings, 20 plain hashes, 9 lists, 1 look-alike hash), and the other libraries' string lock
// k's by k % 7 (ShedLock, python-redis-lock, redis-semaphore, redlock, Laravel, node-redlock, a generic *:lock), each
// under its default pattern, so every default layout is on.
enum class SeedKind { Reentrant, Fenced, Fair, ReadWrite };
SeedKind seedKind(int lock);
QByteArray seedLockName(int lock);
QByteArray seedNoiseName(int noise);
// The owner field lock i is held by, from the handful of client ids.
QByteArray seedOwner(const QList<QByteArray> &clients, int lock);

struct SeedPlan
{
    int locks = 0;
    int noise = 0;
    int otherLocks = 0; // string locks of the other libraries
    qint64 leaseMs = 600000; // far beyond a run: nothing may expire while it is measured
    QList<QByteArray> clients; // client ids (v4 UUIDs)
};

// The benches' usual keyspace: eight random client ids, leases far beyond a run.
SeedPlan standardSeedPlan(int locks, int noise, int otherLocks);
// Commands per pipelined chunk while seeding.
constexpr int kSeedChunk = 10000;

struct SeedCounts
{
    int reentrant = 0, fenced = 0, fair = 0, readWrite = 0;
    int strings = 0, hashes = 0, lists = 0, lookAlikes = 0;
    int otherLocks = 0;
    qint64 commands = 0;
    qint64 elapsedNs = 0;
};

// Pipelined in chunks of chunkCommands, replies read (and checked) after each chunk, so the loader's memory stays
// a few megabytes whatever the size of the keyspace.
bool seedKeyspace(RawPipe &pipe, const SeedPlan &plan, int chunkCommands, SeedCounts *counts, QString *error);

} // namespace LockScope::Bench
