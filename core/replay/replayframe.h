#pragma once

#include "recording/recordedevent.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace LockScope {

// One lock as a recording shows it at a moment: who held it, how often, and what was left of its lease then.
struct ReplayRow
{
    QByteArray name;
    QByteArray kind;
    QByteArray library;
    QList<QByteArray> owners; // empty: the lock existed with nobody holding it (a latch, a semaphore)
    qint64 count = 0; // the holders' counts together
    qint64 ttlMs = -2; // at the moment: -1 no expiry, -2 not known
    qint64 heldMs = -1; // since its oldest hold was seen to begin; -1: begun before the recording saw it
};

// The lock table of one server at one moment of a recording, with the events that led up to it.
struct ReplayFrame
{
    QByteArray server;
    qint64 timeMs = -1;
    qint64 snapshotMs = -1; // the snapshot the table was replayed from (-1: none): holds begun before it are
                            // known only to have begun before it
    bool seen = false; // false: the moment is before the first snapshot, or inside a gap
    QString unseenReason;
    QList<ReplayRow> rows; // by name
    QList<RecordedEvent> recent; // the server's last events at or before the moment, newest first
    QString error;
};

// One lock's events on one server around a moment: what its history page shows.
struct ReplayHistory
{
    QByteArray name;
    QByteArray server;
    qint64 aroundMs = -1;
    QList<RecordedEvent> events; // oldest first
    // The range the events cover whole: a moment outside it needs another look (min/max: to the recording's ends).
    qint64 fromMs = -1;
    qint64 toMs = -1;
    QString error;
};

// What a recording holds, read when it is opened.
struct ReplayInfo
{
    QString path;
    QList<QByteArray> servers;
    qint64 firstMs = -1;
    qint64 lastMs = -1;
    qint64 events = 0;
    QString error;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::ReplayFrame)
Q_DECLARE_METATYPE(LockScope::ReplayInfo)
Q_DECLARE_METATYPE(LockScope::ReplayHistory)
