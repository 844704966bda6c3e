// fusor/fusor.hpp: the one public header. Includes the stages in data-flow order:
// core → tensor → expr (build) → reduce (nodes) → plan → exec → io → explain (show).
#pragma once

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/exec/eager.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/exec/execute.hpp>
#include <fusor/explain/explain.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/fwd.hpp>
#include <fusor/io/print.hpp>
#include <fusor/plan/coalesce.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>
#include <fusor/reduce/along_axis.hpp>
#include <fusor/reduce/equality.hpp>
#include <fusor/reduce/moments.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/reduce/scan.hpp>
#include <fusor/reduce/sort.hpp>
#include <fusor/tensor/factories.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>
