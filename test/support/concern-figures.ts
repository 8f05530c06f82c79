// Precision and recall of one concern over a corpus (issue 10, 25): what the engine said of each
// page against what its truth says, with the pages it got wrong named for the failure message.
export interface ConcernFigures {
  precision: number;
  recall: number;
  /** Pages the truth says fail the concern. */
  failing: number;
  /** `page: false claim` or `page: missed`, for the message of a failed expectation. */
  wrong: string[];
}

export function concernFigures(
  names: readonly string[],
  expected: (name: string) => boolean,
  said: (name: string) => boolean,
): ConcernFigures {
  let truePositive = 0;
  let falsePositive = 0;
  let falseNegative = 0;
  const wrong: string[] = [];
  for (const name of names) {
    const fails = expected(name);
    const claimed = said(name);
    if (claimed && fails) truePositive++;
    if (claimed && !fails) {
      falsePositive++;
      wrong.push(`${name}: false claim`);
    }
    if (!claimed && fails) {
      falseNegative++;
      wrong.push(`${name}: missed`);
    }
  }
  return {
    precision: truePositive + falsePositive === 0 ? 1 : truePositive / (truePositive + falsePositive),
    recall: truePositive + falseNegative === 0 ? 1 : truePositive / (truePositive + falseNegative),
    failing: truePositive + falseNegative,
    wrong,
  };
}
