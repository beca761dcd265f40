#include "base/taskrelay.h"

#include <QSocketNotifier>

#include <cstdint>
#include <sys/eventfd.h>
#include <unistd.h>
#include <utility>

namespace LockScope {

TaskRelay::TaskRelay(QObject *parent)
    : QObject(parent)
    , m_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    if (m_fd < 0)
        return;
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &TaskRelay::drain);
}

TaskRelay::~TaskRelay()
{
    // Tasks never run are destroyed here; whatever they captured to answer a caller breaks and wakes it.
    std::deque<std::function<void()>> left;
    delete m_notifier;
    std::lock_guard<std::mutex> lock(m_mutex);
    left.swap(m_tasks);
    // Closed under the lock: a post() may still be writing its wake-up after its task already ran (the one that
    // ends this thread), and a closed descriptor's number can be reused by anyone at once.
    if (m_fd >= 0)
        ::close(std::exchange(m_fd, -1));
}

void TaskRelay::post(std::function<void()> task)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_fd < 0)
        return;
    m_tasks.push_back(std::move(task));
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(m_fd, &one, sizeof one);
}

void TaskRelay::drain()
{
    std::uint64_t count = 0;
    [[maybe_unused]] const auto n = ::read(m_fd, &count, sizeof count);
    for (;;) {
        std::function<void()> task;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_tasks.empty())
                return;
            task = std::move(m_tasks.front());
            m_tasks.pop_front();
        }
        task();
    }
}

} // namespace LockScope
