package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The result document (docs/protocol.md), Go's timeseries.Result or
 * micro.Result: the header, the config, the steps or the benchmarks, and
 * every failure. What the worker did not get to is left out.
 *
 * @param options the job's engine options, as the parent sent them
 * @param error every failure, each prefixed with its step or benchmark; null if none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Result(
        @JsonProperty("engine") String engine,
        // Written even when null, as the header always was.
        @JsonProperty("version") @JsonInclude(JsonInclude.Include.ALWAYS) String version,
        @JsonProperty("options") @JsonInclude(JsonInclude.Include.ALWAYS) Map<String, Object> options,
        @JsonProperty("engine_description") String engineDescription,
        @JsonProperty("config") WorkloadConfig config,
        @JsonProperty("steps") List<Step> steps,
        @JsonProperty("benchmarks") List<Bench> benchmarks,
        @JsonProperty("error") String error) {

    /** What the result says before the engine runs. */
    public static Result header(String engine, String version, Map<String, Object> options) {
        return new Result(engine, version, options, null, null, null, null, null);
    }

    /** With what ran: the engine as it describes itself, and the workload's config. */
    public Result described(String engineDescription, WorkloadConfig config) {
        return new Result(engine, version, options, engineDescription, config, steps, benchmarks, error);
    }

    public Result withSteps(List<Step> steps) {
        return new Result(engine, version, options, engineDescription, config, steps, benchmarks, error);
    }

    public Result withBenchmarks(List<Bench> benchmarks) {
        return new Result(engine, version, options, engineDescription, config, steps, benchmarks, error);
    }

    public Result withError(String error) {
        return new Result(engine, version, options, engineDescription, config, steps, benchmarks, error);
    }
}
