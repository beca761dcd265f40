#include "monitor/keyreader.h"

#include "kinds/lockscanner.h"
#include "monitor/refreshqueue.h"

namespace LockScope {

KeyReader::KeyReader(LockScanner *scanner, int retryMs, QObject *parent)
    : QObject(parent)
    , m_scanner(scanner)
    , m_queue(new RefreshQueue([this] { return !m_scanner->isRunning(); }, this))
    , m_retryMs(retryMs)
{
    connect(m_queue, &RefreshQueue::batchReady, this, [this](const QList<QByteArray> &names) {
        emit sending(names);
        m_found.clear();
        m_scanner->readKeys(names);
    });
    connect(m_scanner, &LockScanner::locksFound, this, [this](const QList<LockInfo> &locks) {
        for (const LockInfo &lock : locks)
            m_found.insert(lock.name, lock);
    });
    connect(m_scanner, &LockScanner::finished, this, [this](const RedisError &error) { onFinished(error); });
}

void KeyReader::mark(const QByteArray &name)
{
    m_queue->mark(name);
}

bool KeyReader::isIdle() const
{
    return m_queue->isIdle();
}

void KeyReader::onFinished(const RedisError &error)
{
    const QList<QByteArray> requested = m_queue->takeAnswered();
    if (error.isError()) {
        emit failed(error);
        // Read them again once the connection is back; what was seen about them stays with them.
        for (const QByteArray &name : requested)
            m_queue->mark(name);
        m_queue->retryLater(m_retryMs);
        return;
    }
    QList<Answer> answers;
    answers.reserve(requested.size());
    for (const QByteArray &name : requested) {
        const auto it = m_found.constFind(name);
        answers.append({ name, it != m_found.cend() ? std::optional<LockInfo>(*it) : std::nullopt });
    }
    m_found.clear();
    emit answered(answers, m_scanner->rejected());
    m_queue->continueNow();
}

} // namespace LockScope
