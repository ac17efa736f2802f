package org.tsbench.jvm.protocol;

/** What a workload ran with, as the job gives it and the result's config repeats it. */
public interface WorkloadConfig {
}
