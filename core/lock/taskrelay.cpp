#include "taskrelay.h"

namespace LockScope {

TaskRelay::~TaskRelay()
{
    // Tasks never run are destroyed here; whatever they captured to answer a caller breaks and wakes it.
    std::deque<std::function<void()>> left;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        left.swap(m_tasks);
    }
}

void TaskRelay::post(std::function<void()> task)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_tasks.push_back(std::move(task));
    }
    // By name, with no arguments: the queued call is built inside QtCore and carries none of our data.
    QMetaObject::invokeMethod(this, "drain", Qt::QueuedConnection);
}

void TaskRelay::drain()
{
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
