#include "monitor/refreshqueue.h"

#include <utility>

namespace LockScope {

namespace {
constexpr int kRefreshBatch = 500; // keys per refresh pipeline
} // namespace

RefreshQueue::RefreshQueue(std::function<bool()> readerIdle, QObject *parent)
    : QObject(parent)
    , m_readerIdle(std::move(readerIdle))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &RefreshQueue::sendNext);
}

void RefreshQueue::mark(const QByteArray &name)
{
    if (m_queued.contains(name))
        return;
    m_queued.insert(name);
    m_order << name;
    if (m_inFlight.isEmpty() && !m_timer.isActive())
        m_timer.start(0); // events that arrive together are read together
}

QList<QByteArray> RefreshQueue::takeAnswered()
{
    return std::exchange(m_inFlight, {});
}

void RefreshQueue::continueNow()
{
    if (!m_order.isEmpty())
        m_timer.start(0);
}

void RefreshQueue::sendNext()
{
    if (!m_inFlight.isEmpty() || m_order.isEmpty() || !m_readerIdle())
        return;
    const int n = qMin(kRefreshBatch, int(m_order.size()));
    m_inFlight = m_order.mid(0, n);
    m_order.remove(0, n);
    for (const QByteArray &name : std::as_const(m_inFlight))
        m_queued.remove(name);
    emit batchReady(m_inFlight);
}

} // namespace LockScope
