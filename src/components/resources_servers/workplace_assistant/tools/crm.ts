/** The customer-relationship-manager toolkit (NeMo Gym's CustomerRelationshipManagerTool) and the company directory. */
import { appendRow, columnHas, compareMask, containsMask, filterRows, lower, nextId, truthy } from "../table.ts";
import { paginate } from "./results.ts";
import type { Toolkit } from "./types.ts";

const STATUSES = ["Qualified", "Won", "Lost", "Lead", "Proposal"];
const PRODUCTS = ["Software", "Hardware", "Services", "Consulting", "Training"];
const SEARCHED = ["customer_name", "customer_email", "product_interest", "status", "assigned_to_email"] as const;
const RANGES = [
  ["last_contact_date_min", "last_contact_date", ">="],
  ["last_contact_date_max", "last_contact_date", "<="],
  ["follow_up_by_min", "follow_up_by", ">="],
  ["follow_up_by_max", "follow_up_by", "<="],
] as const;

export const directory: Toolkit = {
  company_directory_find_email_address: {
    params: { name: "" },
    run(state, { name }) {
      if (name === "") return "Name not provided.";
      const match = containsMask(state.directory, "email_address", lower(name));
      return state.directory.rows.filter(match).map((r) => r.email_address);
    },
  },
};

export const crm: Toolkit = {
  customer_relationship_manager_search_customers: {
    params: {
      customer_name: null,
      customer_email: null,
      product_interest: null,
      status: null,
      assigned_to_email: null,
      last_contact_date_min: null,
      last_contact_date_max: null,
      follow_up_by_min: null,
      follow_up_by_max: null,
      page: 1,
      page_size: 5,
    },
    run(state, a) {
      if (![...SEARCHED, ...RANGES.map((r) => r[0])].some((k) => truthy(a[k]))) return "No search parameters provided. Please provide at least one parameter.";
      let customers = state.crm;
      for (const column of SEARCHED) if (truthy(a[column])) customers = filterRows(customers, containsMask(customers, column, a[column]));
      for (const [arg, column, op] of RANGES) if (truthy(a[arg])) customers = filterRows(customers, compareMask(column, op, a[arg]));
      const page = paginate(customers.rows, a.page, a.page_size, "customers", "total_customers");
      return customers.rows.length > 0 ? page : "No customers found.";
    },
  },
  customer_relationship_manager_update_customer: {
    params: { customer_id: null, field: null, new_value: null },
    run(state, { customer_id, field, new_value }) {
      if (!truthy(customer_id) || !truthy(field) || !truthy(new_value)) return "Customer ID, field, or new value not provided.";
      if (field === "status" && !STATUSES.includes(new_value as string)) return "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'";
      if (field === "product_interest" && !PRODUCTS.includes(new_value as string)) {
        return "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'";
      }
      const value = field === "customer_email" || field === "assigned_to_email" ? lower(new_value) : new_value;
      if (!columnHas(state.crm, "customer_id", customer_id)) return "Customer not found.";
      if (typeof field !== "string" || !state.crm.columns.includes(field)) {
        return "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'";
      }
      for (const r of state.crm.rows) if (r.customer_id === customer_id) r[field] = value;
      return "Customer updated successfully.";
    },
  },
  customer_relationship_manager_add_customer: {
    params: {
      customer_name: null,
      assigned_to_email: null,
      status: null,
      customer_email: null,
      customer_phone: null,
      last_contact_date: null,
      product_interest: null,
      notes: "",
      follow_up_by: null,
    },
    run(state, a) {
      if (![a.customer_name, a.assigned_to_email, a.status].every(truthy)) return "Please provide all required fields: customer_name, assigned_to_email, status.";
      const assigned_to_email = lower(a.assigned_to_email);
      const customer_email = truthy(a.customer_email) ? lower(a.customer_email) : a.customer_email;
      const customer_id = nextId(state.crm, "customer_id", 8);
      state.crm = appendRow(state.crm, { ...a, customer_id, assigned_to_email, customer_email }, true);
      return customer_id;
    },
  },
  customer_relationship_manager_delete_customer: {
    params: { customer_id: null },
    run(state, { customer_id }) {
      if (!truthy(customer_id)) return "Customer ID not provided.";
      if (!columnHas(state.crm, "customer_id", customer_id)) return "Customer not found.";
      state.crm = filterRows(state.crm, (r) => r.customer_id !== customer_id);
      return "Customer deleted successfully.";
    },
  },
};
