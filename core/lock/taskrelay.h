#pragma once

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

namespace LockScope {

// Runs functions posted from any thread in the thread this object lives in, in order. The functions travel
// through a std::mutex rather than inside Qt's queued-call event, so that ThreadSanitizer (which cannot see
// into an uninstrumented QtCore) sees every hand-off between a caller and the lock client's thread.
class TaskRelay : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~TaskRelay() override;

    void post(std::function<void()> task);

public slots:
    void drain();

private:
    std::mutex m_mutex;
    std::deque<std::function<void()>> m_tasks;
};

} // namespace LockScope
