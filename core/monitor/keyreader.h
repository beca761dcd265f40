#pragma once

#include "base/rediserror.h"
#include "kinds/lockclassifier.h"

#include <QHash>

#include <QObject>

#include <optional>

namespace LockScope {

class LockScanner;
class RefreshQueue;

// The reads of keys by name (an event named them, a deadline passed, a person asked): the marked keys are read in
// batches, one at a time and each key once (RefreshQueue), by a scanner of their own beside the one that runs the
// passes; a batch that failed is read again once the connection is back. What each answer means is not its business.
class KeyReader : public QObject
{
    Q_OBJECT
public:
    struct Answer
    {
        QByteArray name;
        std::optional<LockInfo> read; // nullopt: the key is gone, or no lock
    };

    // scanner: its own, for reads by name (a parent's, or this object's child); retryMs: the pause before a failed
    // batch is read again.
    KeyReader(LockScanner *scanner, int retryMs, QObject *parent = nullptr);

    void mark(const QByteArray &name);
    bool isIdle() const; // nothing queued or in flight
    LockScanner *scanner() const { return m_scanner; }

signals:
    // These keys are about to be read: what happened to them before now happened before the read.
    void sending(const QList<QByteArray> &names);
    // A batch's answers, in the order the keys were marked; rejected: hashes read and found to be user data.
    void answered(const QList<LockScope::KeyReader::Answer> &answers, const QList<QByteArray> &rejected);
    void failed(const LockScope::RedisError &error);

private:
    void onFinished(const RedisError &error);

    LockScanner *m_scanner;
    RefreshQueue *m_queue;
    int m_retryMs;
    QHash<QByteArray, LockInfo> m_found; // the batch's answers so far
};

} // namespace LockScope
