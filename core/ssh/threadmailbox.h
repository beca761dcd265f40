#pragma once

#include <QObject>

#include <memory>
#include <mutex>

namespace LockScope {

// How a plain thread (libssh's) hands results to a QObject of another thread, and stops handing them the moment that
// object is being destroyed: post() and close() take the same mutex, so the object cannot go away mid-post, and
// events already posted to it die with it.
class ThreadMailbox
{
public:
    explicit ThreadMailbox(QObject *owner)
        : m_owner(owner)
    { }

    // From any thread: runs f later in the owner's thread. False once the owner is gone (f is dropped).
    template <typename F> bool post(F f)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_owner)
            return false;
        QMetaObject::invokeMethod(m_owner, std::move(f), Qt::QueuedConnection);
        return true;
    }

    // From the owner's destructor.
    void close()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_owner = nullptr;
    }

private:
    std::mutex m_mutex;
    QObject *m_owner;
};

} // namespace LockScope
