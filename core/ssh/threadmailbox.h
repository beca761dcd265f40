#pragma once

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

namespace LockScope {

// How a plain thread (libssh's) hands work to a QObject of another thread, and stops the moment that object is being
// destroyed. Posted work waits in a queue under a std::mutex, and the owner is only told, by a queued call of its slot
// drainSlot, to run what is there: so the hand-over is visible to ThreadSanitizer (Qt's own event queue is not, in an
// uninstrumented Qt), and post() and close() take the same mutex, so the owner cannot go away mid-post.
class ThreadMailbox
{
public:
    ThreadMailbox(QObject *owner, const char *drainSlot)
        : m_owner(owner)
        , m_drainSlot(drainSlot)
    { }

    // From any thread: f runs later in the owner's thread (from drain()). False once the owner is gone (f dropped).
    bool post(std::function<void()> f)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_owner)
            return false;
        m_queue.push_back(std::move(f));
        if (!m_scheduled) {
            m_scheduled = true;
            QMetaObject::invokeMethod(m_owner, m_drainSlot, Qt::QueuedConnection);
        }
        return true;
    }

    // From the owner's drain slot.
    void drain()
    {
        std::deque<std::function<void()>> work;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            work.swap(m_queue);
            m_scheduled = false;
        }
        for (auto &f : work)
            f();
    }

    // From the owner's destructor: returns what was posted and not run, for the owner to dispose of.
    std::deque<std::function<void()>> close()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_owner = nullptr;
        return std::exchange(m_queue, {});
    }

private:
    std::mutex m_mutex;
    QObject *m_owner;
    const char *m_drainSlot;
    std::deque<std::function<void()>> m_queue;
    bool m_scheduled = false;
};

} // namespace LockScope
