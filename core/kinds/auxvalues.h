#pragma once

#include <QtGlobal>

#include <memory>
#include <utility>
#include <vector>

namespace LockScope {

// What the layouts' aux reads found beside one discovery candidate (a fencing token, a fair queue, readers' timeout
// keys, a permit set), each kept in a type of the layout's own folder: a layout that reads something new declares its
// own type there, and no shared snapshot grows a field for it (kinds/lockrecogniser.h, readAux). A value: copies
// share what was read until one of them writes (the one that writes gets its own).
class AuxValues
{
public:
    // The layout's values, made (default-constructed) on first use.
    template <typename T> T &get()
    {
        for (auto &[tag, value] : m_values) {
            if (tag != &s_tag<T>)
                continue;
            if (value.use_count() > 1)
                value = std::make_shared<T>(*static_cast<const T *>(value.get()));
            return *static_cast<T *>(value.get());
        }
        m_values.emplace_back(&s_tag<T>, std::make_shared<T>());
        return *static_cast<T *>(m_values.back().second.get());
    }
    // The layout's values when its reads stored any; nullptr when none did.
    template <typename T> const T *find() const
    {
        for (const auto &[tag, value] : m_values)
            if (tag == &s_tag<T>)
                return static_cast<const T *>(value.get());
        return nullptr;
    }

private:
    // One address per type: the key a layout's values are found by, with no registry of types.
    template <typename T> static inline const char s_tag = 0;
    std::vector<std::pair<const void *, std::shared_ptr<void>>> m_values;
};

} // namespace LockScope
