/** The project-management toolkit (NeMo Gym's ProjectManagementTool): tasks looked up, searched, created, deleted and updated. */
import { appendRow, columnHas, containsMask, filterRows, lower, nextId, records, truthy, type Row } from "../table.ts";
import type { Toolkit } from "./types.ts";

const LISTS = ["Backlog", "In Progress", "In Review", "Completed"];
const BOARDS = ["Back end", "Front end", "Design"];
const BAD_LIST = "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.";
const BAD_BOARD = "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.";
const BAD_ASSIGNEE = "Assignee email not valid. Please choose from the list of team members.";
const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}\n?$/;

const teamHas = (rows: Row[], email: string) => rows.some((r) => typeof r.assigned_to_email === "string" && r.assigned_to_email.toLowerCase() === email);

export const projectManagement: Toolkit = {
  project_management_get_task_information_by_id: {
    params: { task_id: null, field: null },
    run(state, { task_id, field }) {
      if (!truthy(task_id)) return "Task ID not provided.";
      if (!truthy(field)) return "Field not provided.";
      const found = state.tasks.rows.find((r) => r.task_id === task_id);
      if (!found) return "Task not found.";
      return typeof field === "string" && Object.hasOwn(found, field) ? records([{ [field]: found[field] }])[0] : "Field not found.";
    },
  },
  project_management_search_tasks: {
    params: { task_name: null, assigned_to_email: null, list_name: null, due_date: null, board: null },
    run(state, a) {
      if (![a.task_name, a.assigned_to_email, a.list_name, a.due_date, a.board].some(truthy)) return "No search parameters provided.";
      if (truthy(a.assigned_to_email) && !EMAIL.test(String(a.assigned_to_email))) return "Invalid email format for assigned_to_email.";
      let tasks = state.tasks;
      for (const column of ["task_name", "assigned_to_email", "list_name", "due_date", "board"] as const) {
        if (!truthy(a[column])) continue;
        tasks =
          column === "assigned_to_email"
            ? filterRows(tasks, (r) => typeof r.assigned_to_email === "string" && r.assigned_to_email.toLowerCase() === lower(a.assigned_to_email))
            : filterRows(tasks, containsMask(tasks, column, a[column]));
      }
      return records(tasks.rows);
    },
  },
  project_management_create_task: {
    params: { task_name: null, assigned_to_email: null, list_name: null, due_date: null, board: null },
    run(state, { task_name, assigned_to_email, list_name, due_date, board }) {
      if (![task_name, assigned_to_email, list_name, due_date, board].every(truthy)) return "Missing task details.";
      const assignee = lower(assigned_to_email);
      if (!teamHas(state.tasks.rows, assignee)) return BAD_ASSIGNEE;
      if (!LISTS.includes(list_name as string)) return BAD_LIST;
      if (!BOARDS.includes(board as string)) return BAD_BOARD;
      const task_id = nextId(state.tasks, "task_id", 8);
      state.tasks = appendRow(state.tasks, { task_id, task_name, assigned_to_email: assignee, list_name, due_date, board }, true);
      return task_id;
    },
  },
  project_management_delete_task: {
    params: { task_id: null },
    run(state, { task_id }) {
      if (!truthy(task_id)) return "Task ID not provided.";
      if (!columnHas(state.tasks, "task_id", task_id)) return "Task not found.";
      state.tasks = filterRows(state.tasks, (r) => r.task_id !== task_id);
      return "Task deleted successfully.";
    },
  },
  project_management_update_task: {
    params: { task_id: null, field: null, new_value: null },
    run(state, { task_id, field, new_value }) {
      if (!truthy(task_id) || !truthy(field) || !truthy(new_value)) return "Task ID, field, or new value not provided.";
      const value = field === "assigned_to_email" ? lower(new_value) : new_value;
      if (field === "board" && !BOARDS.includes(value as string)) return BAD_BOARD;
      if (field === "list_name" && !LISTS.includes(value as string)) return BAD_LIST;
      if (field === "assigned_to_email" && !teamHas(state.tasks.rows, value as string)) return BAD_ASSIGNEE;
      if (!columnHas(state.tasks, "task_id", task_id)) return "Task not found.";
      if (typeof field !== "string" || !state.tasks.columns.includes(field)) return "Field not valid.";
      for (const r of state.tasks.rows) if (r.task_id === task_id) r[field] = value;
      return "Task updated successfully.";
    },
  },
};
